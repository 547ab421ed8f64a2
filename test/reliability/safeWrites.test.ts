/**
 * Every write is safe to retry (issue 13, the contract's "Writes are safe to retry"): a lost answer, a dropped
 * connection and a 502 on each non-run write give exactly one effect, and the call returns the resource. Run
 * through the real SDK transport on every mount of the embedded server (in process, msw, real HTTP).
 */
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../src/core/transport.js';
import { TRANSPORT_PARTS } from '../core/support/clients.js';
import { OzResources } from '../../src/generated/index.js';
import type { FaultAction, JournalEntry, OperationId, OzListener, OzServer } from '../../src/testing/index.js';
import { createTestServer } from '../support/ozServer.js';

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
  /** Makes what the write needs; answers the call to make. */
  setUp(oz: OzResources, s: OzServer, n: number): Promise<() => Promise<unknown>>;
  /** How many times the write's effect is on the server after the call (reconciled through the API). */
  effects(oz: OzResources, s: OzServer, n: number): Promise<number>;
}

const count = async <T>(items: AsyncIterable<T>, match: (item: T) => boolean) => {
  let n = 0;
  for await (const item of items) if (match(item)) n++;
  return n;
};

const CASES: readonly Case[] = [
  {
    operationId: 'createCompanyItem',
    setUp: async (oz, _s, n) => () => oz.companies.items.create('acme', { building: 'lab', title: `item ${n}` }),
    effects: (oz, _s, n) => count(oz.companies.items.list('acme', { limit: 100 }), (i) => i.title === `item ${n}`),
  },
  {
    operationId: 'createSchedule',
    setUp: async (oz, _s, n) => () =>
      oz.schedules.create({ name: `nightly ${n}`, cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' }, input: { text: 'x' } }),
    effects: (oz, _s, n) => count(oz.schedules.list({ limit: 100 }), (s) => s.name === `nightly ${n}`),
  },
  {
    operationId: 'createWorkflow',
    setUp: async (oz, _s, n) => () => oz.workflows.create({ name: `flow-${n}`, tasks: [{ id: 'a', type: 'task', agent: 'writer' }] }),
    effects: (oz, _s, n) => count(oz.workflows.list({ limit: 100 }), (w) => w.name === `flow-${n}`),
  },
  {
    operationId: 'deleteWorkflow',
    setUp: async (oz, _s, n) => {
      await oz.workflows.create({ name: `gone-${n}`, tasks: [{ id: 'a', type: 'task', agent: 'writer' }] });
      return () => oz.workflows.delete(`gone-${n}`);
    },
    // The effect of a delete: the workflow is gone (a second run of the handler would have answered 404).
    effects: async (oz, _s, n) => 1 - (await count(oz.workflows.list({ limit: 100 }), (w) => w.name === `gone-${n}`)),
  },
  {
    operationId: 'linkConnection',
    setUp: async (oz) => () => oz.connections.link('crm', { method: 'oauth' }),
    effects: async (_oz, s) => s.journal.filter({ operationId: 'linkConnection' }).filter((e) => e.status === 200 && !e.replayed).length,
  },
  {
    operationId: 'cancelExecution',
    setUp: async (oz) => {
      const pointer = (await oz.tools.execute('slow', { ms: 600_000, async: true })) as { execution_id: string };
      return () => oz.executions.cancel(pointer.execution_id);
    },
    effects: async (_oz, s) => s.journal.filter({ operationId: 'cancelExecution' }).filter((e) => e.status === 200 && !e.replayed).length,
  },
];

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
      expect(first).toMatchObject({ fault: 'error', status: 502 });
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
      let n = 0;
      for (const { name, fault, journal } of FAULTS) {
        n++;
        const write = await c.setUp(oz, s, n);
        s.journal.clear();
        const answers = answersOf(s, operationId);
        s.faults.add({ ...fault, operationId });
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
        expect(await c.effects(oz, s, n), name).toBe(1);
      }
    },
  );
});
