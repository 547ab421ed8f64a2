/**
 * The fault soak: several concurrent clients make mixed calls over real HTTP to an embedded server that
 * injects random faults (runs, and the writes that are not runs: item, schedule and workflow creation, deletes,
 * cancels, connection links) and metered calls (chat completions, embeddings, proxied POSTs, drawn from a wallet
 * of their own), then the server's state and that wallet are reconciled with what every caller recorded: every
 * call's effect exactly once, and its price drawn once.
 *
 * Used by `soak.test.ts` (a few seconds inside `npm test`) and by `run.ts` (`npm run soak`, minutes).
 */
import { Oz, OzError, OzStreamInterruptedError } from '../../../src/index.js';
import type { ChaosDocument, FaultSpec, OzServer } from '../../../src/testing/index.js';
import { seededRandom } from '../../../src/testing/builders/seededIds.js';
import { TOKEN_MICROS } from '../../../src/testing/handlers/models.js';
import { createTestServer, takeViolations } from '../../support/ozServer.js';
import { runHostileClient, type HostileFigures } from './hostileClient.js';
import { runHostileServer, type HostileServerFigures } from './hostileServer.js';

/** How long and how hard to soak. */
export interface SoakOptions {
  /** Stop issuing calls after this many (default 2000). */
  readonly calls?: number;
  /** Stop issuing calls after this many milliseconds (default none). */
  readonly durationMs?: number;
  /** Concurrent clients (default 6), each with `concurrency` calls in flight (default 4). */
  readonly clients?: number;
  readonly concurrency?: number;
  /** Probability that a call gets a fault armed before it (default 0.3). */
  readonly faultRate?: number;
  /** Seed of the pseudo-random choices (calls, faults). */
  readonly seed?: number;
  /**
   * Chaos instead of armed faults: every operation the soak calls (and `getExecution`, what a recovery reads) gets
   * a rule firing at `rate`, drawn from `seed`: a declared retryable error, a lost answer or a dropped
   * connection, by turns. `faultRate` is then 0.
   */
  readonly chaos?: { readonly seed: number; readonly rate: number };
  /** Run the hostile client beside the honest ones (`hostileClient.ts`; default false, `npm run soak` turns it on). */
  readonly hostile?: boolean;
}

type Kind =
  | 'tool'
  | 'agent'
  | 'agentStream'
  | 'workflow'
  | 'workflowStream'
  | 'item'
  | 'schedule'
  | 'workflowCreate'
  | 'workflowDelete'
  | 'scheduleDelete'
  | 'link'
  | 'cancel'
  | 'chat'
  | 'embedding'
  | 'proxy';
const KINDS: readonly Kind[] = [
  'tool',
  'agent',
  'agentStream',
  'workflow',
  'workflowStream',
  'item',
  'schedule',
  'workflowCreate',
  'workflowDelete',
  'scheduleDelete',
  'link',
  'cancel',
  'chat',
  'embedding',
  'proxy',
];
const OPERATION: Record<Kind, NonNullable<FaultSpec['operationId']>> = {
  tool: 'executeTool',
  agent: 'executeAgent',
  agentStream: 'executeAgent',
  workflow: 'executeStoredWorkflow',
  workflowStream: 'executeStoredWorkflowStream',
  item: 'createCompanyItem',
  schedule: 'createSchedule',
  workflowCreate: 'createWorkflow',
  workflowDelete: 'deleteWorkflow',
  scheduleDelete: 'deleteSchedule',
  link: 'linkConnection',
  cancel: 'cancelExecution',
  chat: 'createChatCompletion',
  embedding: 'createEmbedding',
  proxy: 'proxyPost',
};
/** The metered calls: made with the key of {@link METER_ACCOUNT}, whose wallet pays only for them. */
const METERED: ReadonlySet<Kind> = new Set(['chat', 'embedding', 'proxy']);
const METER_ACCOUNT = 'meter';
/** The writes that are not runs: their answer is kept under the trace id and replayed (never run twice). */
const REPLAYED_WRITES: ReadonlySet<Kind> = new Set(['item', 'schedule', 'workflowCreate', 'workflowDelete', 'scheduleDelete', 'link', 'cancel', ...METERED]);
/** The replayed writes whose operation documents a gateway's 502 (`upstream_error`). */
const GATEWAY_WRITES: ReadonlySet<Kind> = new Set(['item', 'schedule', 'workflowCreate', 'workflowDelete', 'scheduleDelete', 'cancel', 'proxy']);

/** What one caller recorded about one call. */
interface CallRecord {
  readonly kind: Kind;
  readonly traceId: string;
  readonly marker: string;
  outcome: 'result' | 'recovered' | 'typed-error' | 'untyped-error';
  /** What the write acts on (a workflow's name, a schedule's or an execution's id, a provider). */
  target?: string;
  error?: string;
  /** The execution id the caller got back (result or recovery). */
  executionId?: string;
  /** The item id the caller got back. */
  itemId?: string;
  /** What a metered call's answer says it cost (micro-dollars). */
  micros?: number;
}

/** The figures of a soak. */
export interface SoakFigures {
  calls: number;
  byKind: Record<string, number>;
  results: number;
  /** Calls that threw a typed error (after their retries). */
  typedErrors: number;
  /** Calls that threw something that is not an `OzError`: must be 0. */
  untypedErrors: number;
  /** Cut streams whose result was read through `executions.wait(error.executionId)`. */
  recoveredStreams: number;
  /** Calls that threw after their run had started on the server, recovered afterwards with `executions.wait`. */
  recoveredAfterThrow: number;
  /** Lost answers the client itself recovered (a retry answered 409 duplicate_execution_id). */
  recoveredDuplicates: number;
  /** Requests the server received, and how many were retries (the second or later attempt of a call). */
  requests: number;
  retries: number;
  faults: Record<string, number>;
  /** A run or write that happened on the server whose result no caller got or could recover: must be 0. */
  lost: number;
  /** A call whose run or write happened more than once on the server: must be 0. */
  doubled: number;
  /** Writes that are not runs (creations, deletes, cancels, links) whose call threw after the write happened, read back by retrying with the same key (a replay). */
  recoveredWrites: number;
  /** Replayed answers the server gave (`x-idempotent-replayed: true`): lost answers of writes the client recovered. */
  replays: number;
  /** Metered calls, what their answers say they cost, and what the meter account's wallet paid (micro-dollars): equal. */
  metered: number;
  pricedMicros: number;
  spentMicros: number;
  /** Results whose content does not match the run the caller asked for: must be 0. */
  mismatched: number;
  /** Answers that broke openapi.json (checked by createTestServer): must be 0. */
  violations: number;
  elapsedMs: number;
  /** Requests a chaos rule put a fault on (with the `chaos` option). */
  chaosFired: number;
  /** Requests the journal shows with a fault, and with a chaos rule's note (`chaos`): equal when only chaos injects faults. */
  faulted: number;
  /** What the hostile client did (with `hostile: true`), and the highest RSS seen. */
  hostile: HostileFigures | null;
  /** What the hostile server answered a client of the SDK, and how it took it (with `hostile: true`). */
  hostileServer: HostileServerFigures | null;
  problems: string[];
}

function pickFault(rand: () => number, kind: Kind): FaultSpec {
  const operationId = OPERATION[kind];
  const streaming = kind === 'agentStream' || kind === 'workflowStream';
  const r = rand();
  if (streaming && r < 0.3) return { operationId, type: 'cut', afterEvents: Math.floor(rand() * 6) };
  if (r < 0.4) {
    // A 502 (a gateway's answer) on the writes that document it, else a 500.
    return rand() < 0.5 && GATEWAY_WRITES.has(kind)
      ? { operationId, type: 'error', status: 502, code: 'upstream_error', retryAfter: 0 }
      : { operationId, type: 'error', status: 500, code: 'internal_error', retryAfter: 0 };
  }
  if (r < 0.5) return { operationId, type: 'error', status: 429, code: 'rate_limited', retryAfter: rand() < 0.9 ? 0 : 1 };
  if (r < 0.65) return { operationId, type: 'drop' };
  if (r < 0.85) return { operationId, type: 'lose' };
  return { operationId, type: 'delay', ms: 20 + Math.floor(rand() * 200) };
}

/** The chaos of the `chaos` option: one rule per operation, its fault by turns a declared error, a lost answer, a drop. */
function soakChaos(seed: number, rate: number): ChaosDocument {
  const operations = [...new Set([...Object.values(OPERATION), 'getExecution' as const])];
  const faults = [{ type: 'error', code: 'declared' }, { type: 'lose' }, { type: 'drop' }] as const;
  return { seed, rules: operations.map((operationId, i) => ({ match: { operationId }, probability: rate, fault: faults[i % faults.length]! })) };
}

/** The content a run of this kind answers for this marker (the demo seed's echo tool and writer agent). */
function expectedContent(kind: Kind, marker: string): string | null {
  if (kind === 'tool') return marker;
  if (kind === 'agent' || kind === 'agentStream') return `Here is a draft for: ${marker}`;
  return null;
}

/** What a write needs before it is made (a workflow or schedule to delete, a run to cancel), made by `setup`. */
async function prepare(setup: Oz, kind: Kind, traceId: string, slug: string): Promise<string | undefined> {
  switch (kind) {
    case 'workflowDelete':
      await setup.workflows.create({ name: slug, tasks: [{ id: 'a', type: 'task', agent: 'writer' }] }, { idempotencyKey: `setup-${traceId}` });
      return slug;
    case 'scheduleDelete':
      return (
        await setup.schedules.create(
          { name: slug, cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' }, enabled: false },
          { idempotencyKey: `setup-${traceId}` },
        )
      ).id;
    case 'cancel':
      // Long enough for the cancel (and its retries) to find it running; short, since idle() waits for it to end.
      return (await setup.tools.execute('slow', { ms: 5_000, async: true }, { idempotencyKey: `setup-${traceId}` })).execution_id;
    case 'link':
      return `prov-${slug}`;
    default:
      return undefined;
  }
}

async function oneCall(
  client: Oz,
  kind: Kind,
  traceId: string,
  marker: string,
  target: string | undefined,
  slug: string,
): Promise<{ content?: string; executionId?: string; itemId?: string; micros?: number }> {
  const options = { idempotencyKey: traceId };
  switch (kind) {
    case 'tool': {
      const r = (await client.tools.execute('echo', { text: marker }, options)) as { content: string; execution_id: string };
      return { content: r.content, executionId: r.execution_id };
    }
    case 'agent': {
      const r = (await client.agents.execute({ agent: 'writer', user_request: marker }, options)) as { content: string; execution_id: string };
      return { content: r.content, executionId: r.execution_id };
    }
    case 'agentStream': {
      const stream = await client.agents.execute({ agent: 'writer', user_request: marker, stream: true }, options);
      const r = await stream.finalResult();
      const data = r as unknown as { content?: string; execution_id?: string; data?: { content: string; execution_id: string } };
      const envelope = data.data ?? data;
      return { content: envelope.content, executionId: envelope.execution_id ?? stream.executionId ?? undefined };
    }
    case 'workflow': {
      const r = (await client.workflows.executeStored('draft-and-review', { input: marker }, options)) as { content: string; execution_id: string };
      return { content: r.content, executionId: r.execution_id };
    }
    case 'workflowStream': {
      const stream = await client.workflows.executeStoredStream('draft-and-review', { input: marker }, options);
      const r = await stream.finalResult();
      const data = r as unknown as { content?: string; execution_id?: string; data?: { content: string; execution_id: string } };
      const envelope = data.data ?? data;
      return { content: envelope.content, executionId: envelope.execution_id ?? stream.executionId ?? undefined };
    }
    case 'item': {
      const r = (await client.companies.items.create('acme', { building: 'hq', title: marker }, options)) as { id: string; title: string };
      return { content: r.title, itemId: r.id };
    }
    case 'schedule': {
      const r = await client.schedules.create(
        { name: marker, cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' }, input: { text: marker }, enabled: false },
        options,
      );
      return { content: r.name };
    }
    case 'workflowCreate': {
      const r = await client.workflows.create({ name: slug, tasks: [{ id: 'a', type: 'task', agent: 'writer' }] }, options);
      return { content: r.name };
    }
    case 'workflowDelete':
      await client.workflows.delete(target!, options);
      return { content: target };
    case 'scheduleDelete':
      await client.schedules.delete(target!, options);
      return { content: target };
    case 'link': {
      const r = await client.connections.link(target!, { method: 'api_key', api_key: 'sk-soak' }, options);
      return { content: r.provider };
    }
    case 'cancel': {
      const r = await client.executions.cancel(target!, options);
      return { content: r.status === 'cancelled' ? target : `${r.id} ${r.status}` };
    }
    case 'chat': {
      const r = await client.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: marker }] }, options);
      return { content: r.choices[0]?.message.content ?? undefined, micros: r.usage!.total_tokens * TOKEN_MICROS };
    }
    case 'embedding': {
      const r = await client.embeddings.create({ model: 'oz-embed', input: marker }, options);
      return { micros: r.usage.total_tokens * TOKEN_MICROS };
    }
    case 'proxy': {
      // ProxyResponse is the upstream's answer (any JSON); the mock's upstream echoes the request and its price.
      const r = (await client.proxy.post('crm', 'notes', { text: marker }, options)) as { body: { text?: string } | null; metered_usd: number };
      return { content: r.body?.text, micros: Math.round(r.metered_usd * 1e6) };
    }
  }
}

/** The content a call of this kind answers (its marker, its slug, or what it acts on). */
function expectedOf(kind: Kind, marker: string, slug: string, target: string | undefined): string | null {
  if (kind === 'item' || kind === 'schedule' || kind === 'proxy') return marker;
  if (kind === 'chat') return `Hello from oz-chat. You said: ${marker}`;
  if (kind === 'embedding') return null;
  if (kind === 'workflowCreate') return slug;
  if (REPLAYED_WRITES.has(kind)) return target ?? null;
  return expectedContent(kind, marker);
}

/** Runs a soak against a fresh embedded server listening on 127.0.0.1, and reconciles it. */
export async function runSoak(options: SoakOptions = {}): Promise<SoakFigures> {
  const total = options.calls ?? 2000;
  const deadline = options.durationMs === undefined ? Infinity : Date.now() + options.durationMs;
  const clients = options.clients ?? 6;
  const concurrency = options.concurrency ?? 4;
  const faultRate = options.chaos ? 0 : (options.faultRate ?? 0.3);
  const rand = seededRandom(options.seed ?? 9);
  const started = Date.now();

  const server: OzServer = createTestServer({ journalLimit: 1_000_000, timing: { stepMs: 2, tokenMs: 1 } });
  server.addAccount({ name: METER_ACCOUNT });
  server.linkConnection(METER_ACCOUNT, 'crm');
  const meterKey = server.addKey({ account: METER_ACCOUNT }).key;
  if (options.chaos) server.chaos.set(soakChaos(options.chaos.seed, options.chaos.rate));
  const listener = await server.listen({ port: 0, mcpPort: 0, host: '127.0.0.1' });
  let honestDone = false;
  const hostile = options.hostile ? runHostileClient(server, listener, () => honestDone) : null;
  const hostileServer = options.hostile ? runHostileServer(() => honestDone) : null;
  const records: CallRecord[] = [];
  const problems: string[] = [];
  let issued = 0;
  let mismatched = 0;
  let recoveredStreams = 0;
  try {
    const workers: Promise<void>[] = [];
    // Makes what a write needs (faults may hit it too: it retries until it gets through).
    const setup = new Oz({ baseURL: listener.url, apiKey: server.apiKey, maxRetries: 20, logLevel: 'off' });
    for (let c = 0; c < clients; c++) {
      const honest = new Oz({ baseURL: listener.url, apiKey: server.apiKey, maxRetries: 2, logLevel: 'off' });
      const metered = new Oz({ baseURL: listener.url, apiKey: meterKey, maxRetries: 2, logLevel: 'off' });
      for (let w = 0; w < concurrency; w++) {
        workers.push(
          (async () => {
            while (issued < total && Date.now() < deadline) {
              const n = issued++;
              const kind = KINDS[Math.floor(rand() * KINDS.length)]!;
              const client = METERED.has(kind) ? metered : honest;
              const traceId = `soak-${c}-${w}-${n}`;
              const marker = `m${n} c${c}`;
              const slug = `s${n}-c${c}`;
              const record: CallRecord = { kind, traceId, marker, outcome: 'result' };
              const armFault = rand() < faultRate;
              const fault = armFault ? pickFault(rand, kind) : undefined;
              try {
                record.target = await prepare(setup, kind, traceId, slug);
              } catch (error) {
                problems.push(`${traceId} ${kind}: its set-up failed: ${String(error)}`);
                continue;
              }
              records.push(record);
              if (fault) server.faults.add(fault);
              try {
                const got = await oneCall(client, kind, traceId, marker, record.target, slug);
                record.executionId = got.executionId;
                record.itemId = got.itemId;
                record.micros = got.micros;
                const expected = expectedOf(kind, marker, slug, record.target);
                if (expected !== null && got.content !== expected) {
                  mismatched++;
                  problems.push(`${traceId} ${kind}: content ${JSON.stringify(got.content)} is not ${JSON.stringify(expected)}`);
                }
              } catch (error) {
                if (!(error instanceof OzError)) {
                  record.outcome = 'untyped-error';
                  record.error = String(error);
                  problems.push(`${traceId} ${kind}: untyped ${String(error)}`);
                  continue;
                }
                record.outcome = 'typed-error';
                record.error = `${error.name}: ${error.message}`;
                // A cut stream says where its run is: read its result there, as a caller would.
                if (error instanceof OzStreamInterruptedError && error.executionId !== undefined) {
                  try {
                    const result = await client.executions.wait(error.executionId, { interval: 10, timeout: 30_000 });
                    record.outcome = 'recovered';
                    record.executionId = result.execution_id;
                    recoveredStreams++;
                    const expected = expectedContent(kind, marker);
                    if (expected !== null && result.content !== expected) {
                      mismatched++;
                      problems.push(`${traceId} ${kind}: recovered ${JSON.stringify(result.content)} is not ${JSON.stringify(expected)}`);
                    }
                  } catch (waitError) {
                    problems.push(`${traceId} ${kind}: wait after a cut stream failed: ${String(waitError)}`);
                  }
                }
              }
            }
          })(),
        );
      }
    }
    await Promise.all(workers).finally(() => (honestDone = true));
    const hostileFigures = hostile === null ? null : await hostile;
    if (hostileFigures?.unexpected) problems.push(`hostile client: ${hostileFigures.unexpected} answers were not the refusal expected`);
    const hostileServerFigures = hostileServer === null ? null : await hostileServer;
    for (const outcome of hostileServerFigures?.unexpectedOutcomes ?? []) problems.push(`hostile server: ${outcome}`);
    server.faults.clear();
    server.chaos.clear();
    await server.idle();

    // Reconcile: every run of the server against the callers' records.
    const reader = new Oz({ baseURL: listener.url, apiKey: server.apiKey, logLevel: 'off' });
    const meterReader = new Oz({ baseURL: listener.url, apiKey: meterKey, logLevel: 'off' });
    // Every run the server holds, through its public API (task runs of a workflow belong to their workflow's run).
    const rootIds: string[] = [];
    for await (const e of reader.executions.list({ limit: 100 })) if (e.task_id === null) rootIds.push(e.id);
    const traceIds = new Set(records.flatMap((r) => [r.traceId, `setup-${r.traceId}`]));
    for (const id of rootIds) {
      if (!traceIds.has(id)) problems.push(`execution ${id} does not carry the trace id of any call (a retry that ran under a new id)`);
    }
    // The server's state, through its public API: what the creations and deletes left.
    const countBy = async <T>(items: AsyncIterable<T>, key: (item: T) => string) => {
      const counts = new Map<string, number>();
      for await (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
      return counts;
    };
    const itemsByTitle = await countBy(reader.companies.items.list('acme', { limit: 100 }), (i) => i.title);
    const schedulesByName = await countBy(reader.schedules.list({ limit: 100 }), (s) => s.name);
    const scheduleIds = await countBy(reader.schedules.list({ limit: 100 }), (s) => s.id);
    const workflowsByName = await countBy(reader.workflows.list({ limit: 100 }), (w) => w.name);
    // Runs started per trace id: the requests of a call whose answer was a 2xx (delivered, lost or cut), not replays.
    const runsByTrace = new Map<string, number>();
    let replays = 0;
    for (const e of server.journal.entries) {
      const trace = e.headers['x-trace-id'];
      if (e.replayed) replays++;
      if (trace !== undefined && e.method !== 'GET' && !e.replayed && e.status !== null && e.status >= 200 && e.status < 300)
        runsByTrace.set(trace, (runsByTrace.get(trace) ?? 0) + 1);
    }

    let lost = 0;
    let doubled = 0;
    let recoveredAfterThrow = 0;
    let recoveredWrites = 0;
    for (const r of records) {
      if (REPLAYED_WRITES.has(r.kind)) {
        // Exactly once: the handler ran at most once for the call, and the state shows the effect once.
        const runs = runsByTrace.get(r.traceId) ?? 0;
        const state =
          r.kind === 'item'
            ? (itemsByTitle.get(r.marker) ?? 0)
            : r.kind === 'schedule'
              ? (schedulesByName.get(r.marker) ?? 0)
              : r.kind === 'workflowCreate'
                ? (workflowsByName.get(slugOf(r)) ?? 0)
                : r.kind === 'workflowDelete'
                  ? Number(!workflowsByName.has(r.target!))
                  : r.kind === 'scheduleDelete'
                    ? Number(!scheduleIds.has(r.target!))
                    : r.kind === 'cancel'
                      ? Number(server.getExecution(r.target!)?.status === 'cancelled')
                      : runs; // a link: its run is its effect
        if (runs > 1 || state > 1) {
          doubled++;
          problems.push(`${r.traceId} ${r.kind}: written ${Math.max(runs, state)} times`);
        }
        if (r.outcome === 'result' && (runs !== 1 || state !== 1)) {
          lost++;
          problems.push(`${r.traceId} ${r.kind}: answered, but the server shows ${state} effects from ${runs} runs`);
        }
        if (r.outcome === 'typed-error' && runs === 1) {
          // The write happened but its caller saw an error: the same call again (same key) answers it, once.
          try {
            const again = await oneCall(METERED.has(r.kind) ? meterReader : reader, r.kind, r.traceId, r.marker, r.target, slugOf(r));
            const expected = expectedOf(r.kind, r.marker, slugOf(r), r.target);
            if (expected !== null && again.content !== expected) {
              mismatched++;
              problems.push(`${r.traceId} ${r.kind}: the retry answered ${JSON.stringify(again.content)}, not ${JSON.stringify(expected)}`);
            }
            if (runsAfter(server, r.traceId) !== 1) {
              doubled++;
              problems.push(`${r.traceId} ${r.kind}: the retry with the same key wrote again`);
            }
            r.micros = again.micros;
            recoveredWrites++;
          } catch (error) {
            lost++;
            problems.push(`${r.traceId} ${r.kind}: written, but a retry with the same key failed: ${String(error)}`);
          }
        }
        continue;
      }
      const runs = runsByTrace.get(r.traceId) ?? 0;
      if (runs > 1) {
        doubled++;
        problems.push(`${r.traceId} ${r.kind}: ran ${runs} times`);
      }
      const run = server.getExecution(r.traceId);
      if (r.outcome === 'result' || r.outcome === 'recovered') {
        if (r.executionId !== r.traceId) problems.push(`${r.traceId} ${r.kind}: answered execution ${String(r.executionId)}, not its trace id`);
        if (run === undefined) {
          lost++;
          problems.push(`${r.traceId} ${r.kind}: answered but no execution on the server`);
        }
        continue;
      }
      // The call threw. If its run happened, the caller must be able to get its result by the trace id.
      if (run === undefined) continue;
      try {
        const result = await reader.executions.wait(r.traceId, { interval: 10, timeout: 30_000 });
        const expected = expectedContent(r.kind, r.marker);
        if (expected !== null && result.content !== expected) {
          mismatched++;
          problems.push(`${r.traceId}: recovered ${JSON.stringify(result.content)} is not ${JSON.stringify(expected)}`);
        }
        recoveredAfterThrow++;
      } catch (error) {
        lost++;
        problems.push(`${r.traceId} ${r.kind}: ran (${run.status}) but cannot be recovered: ${String(error)}`);
      }
    }

    // Money: the meter account paid what the answers of its calls say, each call once (a call that never ran paid nothing).
    const meteredRecords = records.filter((r) => METERED.has(r.kind));
    const pricedMicros = meteredRecords.reduce((sum, r) => sum + ((runsByTrace.get(r.traceId) ?? 0) > 0 ? (r.micros ?? 0) : 0), 0);
    const spentMicros = Math.round(server.wallet(METER_ACCOUNT).spent_usd * 1e6);
    if (spentMicros !== pricedMicros) {
      doubled++;
      problems.push(`the meter account paid ${spentMicros} micro-dollars for calls priced ${pricedMicros}`);
    }

    const entries = server.journal.entries.filter(
      (e) => e.operationId !== null && (Object.values(OPERATION) as string[]).includes(e.operationId) && !e.headers['x-trace-id']?.startsWith('setup-'),
    );
    const faults: Record<string, number> = {};
    const attemptsByTrace = new Map<string, number>();
    let recoveredDuplicates = 0;
    for (const e of entries) {
      if (e.fault !== null) {
        const key = e.fault === 'error' ? `error ${e.status ?? ''}`.trim() : e.fault;
        faults[key] = (faults[key] ?? 0) + 1;
      }
      const trace = e.headers['x-trace-id'];
      if (trace !== undefined) attemptsByTrace.set(trace, (attemptsByTrace.get(trace) ?? 0) + 1);
      if (e.status === 409 && e.fault === null) recoveredDuplicates++;
    }
    let retries = 0;
    for (const n of attemptsByTrace.values()) retries += n - 1;
    const byKind: Record<string, number> = {};
    for (const r of records) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
    const violations = await takeViolations(5000);
    for (const v of violations.slice(0, 10)) problems.push(`openapi violation: ${JSON.stringify(v).slice(0, 300)}`);

    return {
      calls: records.length,
      byKind,
      results: records.filter((r) => r.outcome === 'result').length,
      typedErrors: records.filter((r) => r.outcome === 'typed-error').length,
      untypedErrors: records.filter((r) => r.outcome === 'untyped-error').length + (hostileServerFigures?.untypedErrors ?? 0),
      recoveredStreams,
      recoveredAfterThrow,
      recoveredDuplicates,
      requests: entries.length,
      retries,
      faults,
      lost,
      doubled,
      recoveredWrites,
      replays,
      metered: meteredRecords.length,
      pricedMicros,
      spentMicros,
      mismatched,
      violations: violations.length,
      elapsedMs: Date.now() - started,
      chaosFired: server.journal.entries.filter((e) => e.chaos !== null).length,
      faulted: server.journal.entries.filter((e) => e.fault !== null).length,
      hostile: hostileFigures,
      hostileServer: hostileServerFigures,
      problems,
    };
  } finally {
    await listener.close();
    await server.close();
  }
}

/** A call's slug, as the worker made it (`s<n>-c<client>` from the trace id `soak-<client>-<worker>-<n>`). */
function slugOf(r: CallRecord): string {
  const [, c, , n] = r.traceId.split('-');
  return `s${n}-c${c}`;
}

/** Handler runs of a trace id so far (2xx answers that were not replays). */
function runsAfter(server: OzServer, traceId: string): number {
  return server.journal.entries.filter((e) => e.headers['x-trace-id'] === traceId && !e.replayed && e.status !== null && e.status >= 200 && e.status < 300)
    .length;
}
