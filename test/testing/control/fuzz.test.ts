/**
 * fast-check over every control-plane route: whatever the body, query or id, the answer is never a 500, it is
 * JSON (the error envelope when it fails), and a refused request changes nothing at all.
 */
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { createOzServer } from '../../../src/testing/index.js';
import { CONTROL_OPENAPI } from '../../../src/testing/control/controlOpenapi.js';

const TOKEN = 'ozadm_FuzzFuzzFuzzFuzzFuzzFuzzFuzzFuzz';
const server = createOzServer({ adminToken: TOKEN, clock: { start: '2026-11-22T10:00:00Z', frozen: true } });
afterAll(() => server.close());

type Operation = { readonly responses: Readonly<Record<string, { readonly content?: Readonly<Record<string, unknown>> }>> };
/** Whether an operation answers JSON (not the console's page, script and style, nor the live feed's endless stream). */
const answersJson = (operation: Operation) => Object.values(operation.responses).every((r) => r.content === undefined || 'application/json' in r.content);
const ROUTES = Object.entries(CONTROL_OPENAPI.paths as unknown as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, operation]) => answersJson(operation))
    .map(([method, operation]) => ({ method: method.toUpperCase(), path, jsonRpc: JSON.stringify(operation.responses).includes('JsonRpcError') })),
);

/** Everything a refused request must leave as it was. */
async function observable(): Promise<string> {
  const { saved_at: _, ...state } = server.exportState();
  const get = async (path: string) => (await server.fetch(`${server.url}/_oz${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return JSON.stringify([state, await get('/faults'), await get('/settings'), await get('/clock'), server.journal.entries.length]);
}

const field = fc.oneof(
  fc.constantFrom(
    'type',
    'operationId',
    'ms',
    'now',
    'frozen',
    'account',
    'reason',
    'rate_limit',
    'step_ms',
    'tools',
    'accounts',
    'keys',
    'format',
    'version',
    'status',
    'code',
    'times',
    'pathPattern',
    'timeout_ms',
    'key_expiry_days',
    'value',
    'paused',
    'step',
  ),
  fc.string({ maxLength: 8 }),
);
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('executeTool', 'error', 'drop', 'demo', 'oz-mock-state', 1, -1, 0, 1e12, null, true, 'ozk_x', '(', 'not a date'),
);
const body = fc.oneof(
  fc.dictionary(field, value, { maxKeys: 5 }).map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
  fc.constant(''),
  fc.constantFrom(
    'tools:\n  - name: t\n    answer: [1]\n',
    '{"format":"oz-mock-state","version":1}',
    '{"accounts":[{"name":"demo"}]}',
    '{"type":"error","status":500,"code":"x","operationId":"nope"}',
  ),
);
const query = fc.dictionary(
  fc.constantFrom('operationId', 'method', 'path', 'status', 'limit', 'x'),
  fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('executeTool', '0', '200', '99999')),
  { maxKeys: 3 },
);
const id = fc.oneof(fc.constantFrom('itm_nope', 'key_nope', 'flt_1', '%2F', '..'), fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/));

it('every route, any input: never a 500, always JSON, and a refused request changes nothing', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...ROUTES),
      body,
      query,
      id,
      fc.constantFrom('application/json', 'application/yaml', 'text/plain'),
      async (route, text, q, pathId, contentType) => {
        const path = route.path.replace('{id}', encodeURIComponent(pathId));
        const search = new URLSearchParams(q).toString();
        const before = await observable();
        const res = await server.fetch(`${server.url}${path}${search ? `?${search}` : ''}`, {
          method: route.method,
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': contentType },
          body: route.method === 'GET' ? undefined : text,
        });
        expect(res.status, `${route.method} ${path} ${text}`).toBeLessThan(500);
        const answer = (await res.json()) as { error?: { code: string | number; message: string } };
        if (res.status >= 400) {
          // The envelope, or (on an MCP route, past the control plane's own checks) a JSON-RPC error.
          if (route.jsonRpc && typeof answer.error?.code === 'number') expect(answer).toMatchObject({ jsonrpc: '2.0', error: { message: expect.any(String) } });
          else expect(answer.error?.code).toMatch(/^[a-z_]+$/);
          expect(await observable(), `${route.method} ${path} changed the state but answered ${res.status}`).toBe(before);
        }
        // Back to a known state for the next run (a successful write may have changed it).
        if (res.status < 400) {
          server.reset();
          server.faults.clear();
          await server.fetch(`${server.url}/_oz/settings`, {
            method: 'PATCH',
            headers: { authorization: `Bearer ${TOKEN}` },
            body: '{"rate_limit":100000,"step_ms":10,"token_ms":2,"poll_ms":0,"key_cache_ms":120000}',
          });
        }
      },
    ),
    { numRuns: 400 },
  );
}, 120_000);
