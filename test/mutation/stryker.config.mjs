// Mutation testing (`npm run test:mutation`, test/README.md "Mutation testing"): Stryker changes the code of
// src/core/ and of the embedded server's wire selection and pipeline steps one mutant at a time and runs the unit
// tests that cover each; a mutant no test notices is a behaviour no test pins. Not part of `npm test`.
// The machine it runs on is shared: one mutant at a time, and `--mutate <file>` narrows a run to what changed.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'test/mutation/vitest.config.ts', related: true },
  mutate: ['src/core/**/*.ts', 'src/testing/wire/**/*.ts', 'src/testing/pipeline/steps/**/*.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  // Later runs redo only the mutants whose code or covering tests changed; the file is committed.
  incremental: true,
  incrementalFile: 'test/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // What the sandbox needs: the sources, the tests, the configs (node_modules is linked, not copied).
  ignorePatterns: ['/bench', '/docs', '/examples', '/dist', '/dist-bin', '/reports', '/test/apps', '/tools', '/coverage', '/.scratch'],
  thresholds: { high: 90, low: 80, break: null },
};
