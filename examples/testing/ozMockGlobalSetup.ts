/**
 * One embedded Oz server for a whole vitest run, on a real port, from vitest's `globalSetup`:
 *
 *   // vitest.config.ts
 *   export default defineConfig({ test: { globalSetup: ['./test/ozMockGlobalSetup.ts'] } });
 *
 * It runs in the test runner's own process, so it ends with the run: no child process, no orphan holding the
 * port, even when the run is killed. Test files read where it listens with `inject('ozMock')`.
 */
// #region global-setup
import { readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { createOzServer } from 'oz-sdk/testing';

export default async function setup(project: Pick<TestProject, 'provide'>): Promise<() => Promise<void>> {
  const server = createOzServer({ fixtures: readFileSync(new URL('../fixtures/shop.yaml', import.meta.url), 'utf8') });
  const listener = await server.listen(); // free ports on 127.0.0.1
  project.provide('ozMock', { url: listener.url, adminToken: server.adminToken!, apiKey: server.apiKey });
  return async () => {
    await listener.close();
    await server.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    ozMock: { url: string; adminToken: string; apiKey: string };
  }
}
// #endregion
