/**
 * Every write is safe to retry (issue 13, the contract's "Writes are safe to retry"): a lost answer, a dropped
 * connection and a 502 (a 500 where the operation describes no 502) on each safe write (every operation openapi.json marks `x-oz-safe-write`) give exactly one
 * effect, and the call returns the resource. Run
 * through the real SDK transport on every mount of the embedded server (in process, msw, real HTTP).
 */
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../src/core/transport.js';
import { TRANSPORT_PARTS } from '../core/support/clients.js';
import { OzResources } from '../../src/generated/index.js';
import type { FaultAction, JournalEntry, OperationId, OzListener, OzServer } from '../../src/testing/index.js';
import { operationCalls } from '../support/operationCalls.js';
import { createTestServer } from '../support/ozServer.js';
import { describesStatus, plainRequest, SAFE_WRITES, type MakeResource } from '../support/plainRequests.js';
import { call } from '../testing/support/serverCall.js';

type Mount = 'in process' | 'msw' | 'over HTTP';

let server: OzServer | undefined;
let listener: OzListener | undefined;
let msw: ReturnType<typeof setupServer> | undefined;
afterEach(async () => {
  msw?.close();
  msw = undefined;
  await listener?.close();
  listener = undefined;
  await server?.close();
  server = undefined;
});

/** A fresh embedded server, and the SDK's resources over the mount (a backoff of milliseconds: retries stay fast). */
async function setUp(mount: Mount): Promise<{ oz: OzResources; server: OzServer }> {
  server = createTestServer();
  let baseURL = server.url;
  let fetch: ((input: Request | string | URL, init?: RequestInit) => Promise<Response>) | undefined = server.fetch;
  if (mount === 'msw') {
    const intercepting = setupServer(...server.handlers());
    intercepting.listen({ onUnhandledRequest: 'error' });
    msw = intercepting;
    fetch = undefined;
  } else if (mount === 'over HTTP') {
    listener = await server.listen();
    baseURL = listener.url;
    fetch = undefined;
  }
  const transport = new Transport({
    baseURL,
    apiKey: server.apiKey,
    fetch,
    logLevel: 'off',
    maxRetries: 2,
    backoff: { initialMs: 2, maxMs: 10 },
    ...TRANSPORT_PARTS,
  });
  return { oz: new OzResources(transport), server };
}

/** The bodies of the 2xx answers the server gave to an operation (lost ones included), in order. */
function answersOf(s: OzServer, operationId: OperationId): { bodies: Promise<unknown>[]; replayedHeaders: (string | null)[] } {
  const bodies: Promise<unknown>[] = [];
  const replayedHeaders: (string | null)[] = [];
  s.onResponse((event) => {
    if (event.operationId !== operationId || event.response.status >= 300) return;
    bodies.push(event.response.json());
    replayedHeaders.push(event.response.headers.get('x-idempotent-replayed'));
  });
  return { bodies, replayedHeaders };
}

interface Case {
  readonly operationId: OperationId;
  /** Makes what the write needs; answers the call to make, through the SDK. */
  setUp(oz: OzResources, s: OzServer): Promise<() => Promise<unknown>>;
  /** How many times the write's effect is on the server after the call. */
  effects(s: OzServer): number;
}

const CALLS = new Map(operationCalls().map((c) => [c.id, c]));
/** The resources a plain request needs, made straight on the server (no fault is set yet). */
const makeOn =
  (s: OzServer): MakeResource =>
  async (request) => {
    const res = await call(s, request.method, request.path, { body: request.body });
    expect(res.status, `${request.method} ${request.path}`).toBe(request.expect);
    return (await res.json()) as Record<string, unknown>;
  };

/**
 * Every safe write of openapi.json (`x-oz-safe-write`), its plain request derived from the document
 * (test/support/plainRequests.ts) and made through the SDK's method for it. The effect: the handler answered
 * once (one 2xx answer that is not a replay), whatever the fault did to the first attempt.
 */
const CASES: readonly Case[] = SAFE_WRITES.map((operationId) => ({
  operationId,
  setUp: async (oz, s) => {
    // The proxy's safe writes call the provider the plain requests name.
    s.linkConnection('demo', 'maps');
    const request = await plainRequest(operationId, makeOn(s));
    const sdk = CALLS.get(operationId)!;
    return () => sdk.call(oz, { path: { ...request.params }, query: {}, body: request.body, options: {} }) as Promise<unknown>;
  },
  effects: (s) => s.journal.filter({ operationId }).filter((e) => e.status !== null && e.status < 300 && !e.replayed).length,
}));

/** `fault`, its 502 a 500 `internal_error` on an operation that describes no 502 (the models plane). */
function serverError(operationId: OperationId, fault: FaultAction): FaultAction {
  if (fault.type !== 'error' || describesStatus(operationId, fault.status)) return fault;
  return { ...fault, status: 500, code: 'internal_error' };
}

const FAULTS: readonly { name: string; fault: FaultAction; journal: (entries: JournalEntry[]) => void }[] = [
  {
    name: 'a lost answer',
    fault: { type: 'lose' },
    journal: ([first, retry, ...rest]) => {
      expect(rest).toEqual([]);
      expect(first).toMatchObject({ fault: 'lose', replayed: false });
      expect(first!.status).toBeGreaterThanOrEqual(200);
      expect(retry).toMatchObject({ fault: null, status: first!.status, replayed: true });
      expect(retry!.headers['x-trace-id']).toBe(first!.headers['x-trace-id']);
    },
  },
  {
    name: 'a dropped connection',
    fault: { type: 'drop' },
    journal: ([first, retry, ...rest]) => {
      expect(rest).toEqual([]);
      expect(first).toMatchObject({ fault: 'drop', status: null });
      expect(retry).toMatchObject({ fault: null, replayed: false });
      expect(retry!.headers['x-trace-id']).toBe(first!.headers['x-trace-id']);
    },
  },
  {
    name: 'a 502',
    fault: { type: 'error', status: 502, code: 'upstream_error' },
    journal: ([first, retry, ...rest]) => {
      expect(rest).toEqual([]);
      expect(first).toMatchObject({ fault: 'error' });
      expect([500, 502]).toContain(first!.status);
      expect(retry).toMatchObject({ fault: null, replayed: false });
      expect(retry!.headers['x-trace-id']).toBe(first!.headers['x-trace-id']);
    },
  },
];

describe.each<Mount>(['in process', 'msw', 'over HTTP'])('every write is safe to retry (%s)', (mount) => {
  it.each(CASES.map((c) => [c.operationId, c] as const))(
    '%s: one effect under a lost answer, a dropped connection and a 502; the call returns the resource',
    async (operationId, c) => {
      const { oz, server: s } = await setUp(mount);
      for (const { name, fault, journal } of FAULTS) {
        const write = await c.setUp(oz, s);
        s.journal.clear();
        const answers = answersOf(s, operationId);
        s.faults.add({ ...serverError(operationId, fault), operationId });
        const { data, response } = await (write() as ReturnType<typeof oz.workflows.delete>).withResponse();
        journal(s.journal.filter({ operationId }));
        const bodies = await Promise.all(answers.bodies);
        // The handler answered once; the caller got that very resource (the lost answer's, when it was lost).
        expect(bodies[0], name).toEqual(data);
        expect(
          bodies.every((b) => JSON.stringify(b) === JSON.stringify(data)),
          name,
        ).toBe(true);
        expect(response.headers.get('x-idempotent-replayed'), name).toBe(fault.type === 'lose' ? 'true' : null);
        expect(answers.replayedHeaders, name).toEqual(fault.type === 'lose' ? [null, 'true'] : [null]);
        expect(c.effects(s), name).toBe(1);
      }
    },
  );
});
