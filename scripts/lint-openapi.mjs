// Lints openapi.json with Redocly's rule set ("recommended-strict": every warning is an error) and Spectral's
// `spectral:oas` (recommended rules; every finding, warnings and hints included, fails), in both forms the server
// serves: as it is, and with `content=all` (the alternative forms of answers merged into `content`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString, formatProblems, getTotals } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { withAllContent } from '../src/testing/contract/documentContent.ts';
import { lintOperationErrorCodes } from './codegen/operationErrors.mjs';
import { lintSafeWrites } from './codegen/safeWrites.mjs';

const ref = fileURLToPath(new URL('../openapi.json', import.meta.url));
const source = readFileSync(ref, 'utf8');
const forms = [
  // Redocly does not follow a $ref inside an extension: a schema used only by an alternative form (the chat stream's
  // chunk) looks unused here. The `content=all` form below, where every reference is in `content`, checks that rule.
  { name: 'openapi.json', source, rules: { 'no-unused-components': 'off' } },
  { name: 'openapi.json?content=all', source: `${JSON.stringify(withAllContent(JSON.parse(source)), null, 2)}\n`, rules: {} },
];

const SEVERITY = ['error', 'warning', 'info', 'hint'];
let failures = 0;
for (const form of forms) {
  const config = await createConfig({ extends: ['recommended-strict'], rules: form.rules });
  const problems = await lintFromString({ source: form.source, absoluteRef: ref, config });
  const totals = getTotals(problems);
  if (problems.length > 0) formatProblems(problems, { format: 'codeframe', totals, version: 'lint' });
  console.log(`${form.name} (Redocly recommended-strict): ${totals.errors} errors, ${totals.warnings} warnings`);

  const spectral = new spectralCore.Spectral();
  spectral.setRuleset({ extends: [[oas, 'recommended']] });
  const findings = await spectral.run(new spectralCore.Document(form.source, Parsers.Json, ref));
  for (const f of findings) {
    const line = f.range.start.line + 1;
    console.log(`${form.name}:${line} ${SEVERITY[f.severity]} ${f.code} at #/${f.path.join('/')}: ${f.message}`);
  }
  console.log(`${form.name} (Spectral spectral:oas): ${findings.length} findings`);
  failures += totals.errors + totals.warnings + findings.length;
}
// Per-operation error codes (`x-oz-error-codes` and the root's `x-oz-error-code-rules`): each a code of ErrorCode,
// with a status the operation describes.
const codeProblems = lintOperationErrorCodes(JSON.parse(source));
for (const problem of codeProblems) console.log(`openapi.json error ${problem}`);
console.log(`openapi.json (x-oz-error-codes): ${codeProblems.length} problems`);
failures += codeProblems.length;
// Safe writes (`x-oz-safe-write`): each has the TraceId parameter, x-oz-replay, a 409, a 422 and the replay header.
const safeWriteProblems = lintSafeWrites(JSON.parse(source));
for (const problem of safeWriteProblems) console.log(`openapi.json error ${problem}`);
console.log(`openapi.json (x-oz-safe-write): ${safeWriteProblems.length} problems`);
failures += safeWriteProblems.length;
process.exit(failures > 0 ? 1 : 0);
