/**
 * vitest `setupFiles` entry: after each test, every answer an embedded Oz server gave during it (servers made
 * with `createTestServer`) must be described by openapi.json; any violation fails that test. It loads only
 * `violations.ts`: the server, Ajv and openapi.json load in the test files that make a server.
 */
import { afterEach } from 'vitest';
import { takeViolations } from './violations.js';

afterEach(async () => {
  const found = await takeViolations();
  if (found.length) {
    const lines = found.map((v) => `${v.method} ${v.path} (${v.operationId ?? 'no operation'}) ${v.status}: ${v.problems.join(' | ')}`);
    throw new Error(`Answers not described by openapi.json:\n${lines.join('\n')}`);
  }
});
