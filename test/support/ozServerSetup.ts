/**
 * vitest `setupFiles` entry: after each test, every answer an embedded Oz server gave during it (servers made
 * with `createTestServer`) must be described by openapi.json; any violation fails that test.
 */
import { afterEach } from 'vitest';
import { takeViolations } from './ozServer.js';

afterEach(async () => {
  const found = await takeViolations();
  if (found.length) {
    const lines = found.map((v) => `${v.method} ${v.path} (${v.operationId ?? 'no operation'}) ${v.status}: ${v.problems.join(' | ')}`);
    throw new Error(`Answers not described by openapi.json:\n${lines.join('\n')}`);
  }
});
