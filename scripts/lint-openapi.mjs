// Lints openapi.json with Redocly's rule set ("recommended-strict": every warning is an error) and Spectral's
// `spectral:oas` (recommended rules; every finding, warnings and hints included, fails).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createConfig, lint, formatProblems, getTotals } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';

const ref = fileURLToPath(new URL('../openapi.json', import.meta.url));

const config = await createConfig({ extends: ['recommended-strict'] });
const problems = await lint({ ref, config });
const totals = getTotals(problems);
if (problems.length > 0) formatProblems(problems, { format: 'codeframe', totals, version: 'lint' });
console.log(`openapi.json (Redocly recommended-strict): ${totals.errors} errors, ${totals.warnings} warnings`);

const SEVERITY = ['error', 'warning', 'info', 'hint'];
const spectral = new spectralCore.Spectral();
spectral.setRuleset({ extends: [[oas, 'recommended']] });
const findings = await spectral.run(new spectralCore.Document(readFileSync(ref, 'utf8'), Parsers.Json, ref));
for (const f of findings) {
  const line = f.range.start.line + 1;
  console.log(`openapi.json:${line} ${SEVERITY[f.severity]} ${f.code} at #/${f.path.join('/')}: ${f.message}`);
}
console.log(`openapi.json (Spectral spectral:oas): ${findings.length} findings`);

process.exit(totals.errors + totals.warnings + findings.length > 0 ? 1 : 0);
