import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Examples import the package by its name, as a user does; in this repository the names point at the sources
// (tsconfig.json's `paths` does the same for tsc and tsx).
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
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
