// Lints openapi.json with Redocly's rule set ("recommended-strict": every warning is an error).
import { fileURLToPath } from 'node:url';
import { createConfig, lint, formatProblems, getTotals } from '@redocly/openapi-core';

const ref = fileURLToPath(new URL('../openapi.json', import.meta.url));
const config = await createConfig({ extends: ['recommended-strict'] });
const problems = await lint({ ref, config });
const totals = getTotals(problems);
if (problems.length > 0) formatProblems(problems, { format: 'codeframe', totals, version: 'lint' });
console.log(`openapi.json: ${totals.errors} errors, ${totals.warnings} warnings`);
process.exit(totals.errors + totals.warnings > 0 ? 1 : 0);
