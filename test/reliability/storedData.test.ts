/**
 * Nothing a request can store breaks the state's export, import or save (the contract's "Money and trust at the
 * edges"): random deep and odd JSON (within the 128 levels: deep, wide, keys like `__proto__`, lone surrogates,
 * huge numbers, C1 controls) is written through the write routes that keep a caller's data, then the state is
 * exported, saved, imported and compared.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../support/ozServer.js';
import { call, callJson } from '../testing/support/serverCall.js';

const TOKEN = `ozadm_${'s'.repeat(32)}`;
const dir = mkdtempSync(join(tmpdir(), 'oz-stored-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const oddText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', '\ud800', '\udc00x', '\u0085', '\u009b[2J', '\u2028', '\ufffe', '\u0000', ''),
);
const oddNumber = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e308, -1e308, 5e-324, 2 ** 53 + 2, -0));
const leaf = fc.oneof(oddText, oddNumber, fc.boolean(), fc.constant(null));
const wide = fc.dictionary(oddText, leaf, { maxKeys: 30 });

/** A JSON value up to `levels` deep: random leaves and wide objects wrapped under odd keys and in arrays. */
const deepValue = (levels: number) =>
  fc.tuple(fc.oneof(leaf, wide), fc.array(fc.tuple(oddText, fc.boolean()), { minLength: 0, maxLength: levels })).map(([inner, wraps]) => {
    let value: unknown = inner;
    for (const [key, asArray] of wraps) value = asArray ? [value] : JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`);
    return value;
  });

describe('stored data always exports, saves and imports', () => {
  it('random deep and odd JSON through schedules, executions, items, workflows, stubs and faults', async () => {
    const stateFile = join(dir, 'state.json');
    const server = createTestServer({ adminToken: TOKEN, stateFile });
    try {
      // The schedule's body is an object whose `input` may nest 127 more levels (128 in all).
      const samples = fc.sample(fc.tuple(deepValue(126), oddText, deepValue(40)), { numRuns: 40, seed: 36 });
      let stored = 0;
      for (const [i, [input, text, other]] of samples.entries()) {
        const writes = [
          call(server, 'POST', '/v1/schedules', {
            body: { name: `s${i}`, cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' }, input: { deep: input }, enabled: false },
          }),
          call(server, 'POST', '/v1/tools/echo/execute', { body: { text } }),
          call(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: text || 'x', body: text } }),
          call(server, 'POST', '/v1/workflows', {
            body: { name: `w${i}`, description: text, tasks: [{ id: 'a', type: 'task', agent: 'writer', input: other }] },
          }),
          call(server, 'POST', '/_oz/stubs', {
            key: TOKEN,
            body: {
              operationId: 'getTool',
              match: { path: { tool: `t${i}` } },
              answer: { status: 404, body: { error: { code: 'tool_not_found', message: text } } },
            },
          }),
          call(server, 'POST', '/_oz/faults', { key: TOKEN, body: { operationId: 'getTool', type: 'drop', body: { deep: other } } }),
        ];
        for (const res of await Promise.all(writes)) {
          // A write may be refused (a number JavaScript cannot hold exactly, a name the schema refuses), never fail.
          expect(res.status, await res.clone().text()).toBeLessThan(500);
          if (res.status < 300) stored++;
        }
      }
      expect(stored).toBeGreaterThan(samples.length * 3);
      await server.idle();

      const exported = await callJson(server, 'GET', '/_oz/state', { key: TOKEN });
      expect(exported.status).toBe(200);
      const saved = await callJson<{ path: string }>(server, 'POST', '/_oz/state/save', { key: TOKEN });
      expect(saved.status).toBe(200);
      const withoutTime = ({ saved_at: _at, ...rest }: Record<string, unknown>) => rest;
      expect(withoutTime(JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, unknown>)).toEqual(withoutTime(exported.body));

      const imported = await call(server, 'PUT', '/_oz/state', { key: TOKEN, body: JSON.parse(readFileSync(stateFile, 'utf8')) });
      expect(imported.status, await imported.clone().text()).toBe(200);
      const again = await callJson(server, 'GET', '/_oz/state', { key: TOKEN });
      expect(withoutTime(again.body)).toEqual(withoutTime(exported.body));
    } finally {
      await server.close();
    }
  }, 120_000);
});
