import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// Examples import the package by its name, as a user does; in this repository the names point at the sources
// (tsconfig.json's `paths` does the same for tsc and tsx).
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The client's unit tests: they load the client they test and hold no state between files, so a worker loads the
// client's modules once for all of them instead of once per file (test/README.md, "What a test file loads").
const CORE_TESTS = ['test/core/**/*.test.ts'];

/** What every vitest run of the repository shares (test/peers and test/binary build on it). */
export const shared = defineConfig({
  resolve: {
    alias: [
      { find: /^oz-sdk$/, replacement: source('./src/index.ts') },
      { find: /^oz-sdk\/testing$/, replacement: source('./src/testing/index.ts') },
      { find: /^oz-sdk\/mcp$/, replacement: source('./src/mcp/index.ts') },
      { find: /^oz-sdk\/funcs$/, replacement: source('./src/funcs/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    setupFiles: ['./test/support/ozServerSetup.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});

// `extends: true` merges a project's lists into the shared ones: each project sets its own `include`.
const { include, ...common } = shared.test!;

export default defineConfig({
  ...shared,
  test: {
    ...common,
    projects: [
      { extends: true, test: { name: 'core', include: CORE_TESTS, isolate: false, unstubGlobals: true, unstubEnvs: true } },
      { extends: true, test: { name: 'suite', include, exclude: [...configDefaults.exclude, ...CORE_TESTS] } },
    ],
  },
});
