/**
 * The nested run of parallelWorkers.test.ts: one oz-mock for the run (examples/testing/ozMockGlobalSetup.ts), four
 * test files in four parallel workers, each file with a session of its own (examples/testing/ozSession.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: at('../../../..'),
  resolve: {
    alias: [
      { find: /^oz-sdk$/, replacement: at('../../../../src/index.ts') },
      { find: /^oz-sdk\/testing$/, replacement: at('../../../../src/testing/index.ts') },
    ],
  },
  test: {
    include: ['test/testing/sessions/parallel/*.spec.ts'],
    globalSetup: [at('../../../../examples/testing/ozMockGlobalSetup.ts'), at('./barrier.ts')],
    pool: (process.env.OZ_PARALLEL_POOL as 'threads' | 'forks' | undefined) ?? 'threads',
    maxWorkers: 4,
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
