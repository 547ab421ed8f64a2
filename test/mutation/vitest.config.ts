/**
 * The vitest run Stryker drives (test/mutation/stryker.config.mjs, `npm run test:mutation`): only the unit tests
 * of what it mutates, in one fork. Not part of `npm test`.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { shared } from '../../vitest.config.js';

// Stryker's vitest runner hands vitest `pool: 'threads'` as a command-line option, which wins over any config; in
// a worker thread test/core/options/callerMistakes.test.ts runs out of memory. Vitest keeps its final options on
// the resolved config (`_vitest`) until its server starts: this plugin, run after vitest's own, sets them back to
// one child process.
const forksPool: Plugin = {
  name: 'oz-mutation-forks-pool',
  configResolved(config) {
    const options = (config as { _vitest?: { pool?: string } })._vitest;
    if (options) options.pool = 'forks';
  },
};

export default defineConfig({
  ...shared,
  plugins: [forksPool],
  // Stryker's sandbox links node_modules: vite's cache goes outside it, so a run leaves the checkout untouched.
  cacheDir: join(tmpdir(), 'oz-sdk-mutation-vite'),
  test: {
    ...shared.test,
    include: ['test/core/**/*.test.ts', 'test/testing/wire/**/*.test.ts', 'test/testing/pipeline/steps/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    // The client's unit tests hold no state between files (test/README.md, "What a test file loads").
    isolate: false,
    unstubGlobals: true,
    unstubEnvs: true,
    reporters: ['default'],
  },
});
