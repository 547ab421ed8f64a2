/**
 * The call path's rarely used parts (core/callExtras.ts: spans, streams, pointers, validation, lost answers, the
 * in-process and legacy-key hints) work on their first use through both clients: the `Oz` client gives them
 * loaded, `OzCore` loads them then (so a bundle of one standalone function carries none of them up front). Each
 * part is called through `oz.<method>` and through its standalone function, and both answer the same.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { OzCore, toolsExecute, toolsGet } from '../../src/funcs/index.js';
import { LegacyKeyError, Oz, OzResponseValidationError, OzUsageError, type ClientOptions } from '../../src/index.js';
import { KEY, rejectionOf } from '../core/support/clients.js';
import { executionRecord } from '../core/support/executionRecord.js';

type Answer = Response | (() => Response | never);

/** A fetch that answers `answers` in order (a function may throw, as a failed connection does), recording URLs. */
function scripted(answers: Answer[]) {
  const urls: string[] = [];
  const fetch = async (input: string | URL | Request) => {
    urls.push(String(input instanceof Request ? input.url : input));
    const next = answers.shift();
    if (next === undefined) throw new Error(`unscripted request ${String(input)}`);
    return typeof next === 'function' ? next() : next;
  };
  return { fetch, urls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const tool = { name: 'echo', description: 'Echoes.', input_schema: { type: 'object' }, required: [], connection: null };
const BASE = 'http://127.0.0.1:9';

/** Runs `call` through an `Oz` client and through `OzCore` and its function, each over its own scripted fetch. */
async function bothClients<R>(
  answers: () => Answer[],
  options: Partial<ClientOptions>,
  viaOz: (oz: Oz) => Promise<R>,
  viaCore: (core: OzCore) => Promise<R>,
): Promise<{ oz: R; core: R; ozUrls: string[]; coreUrls: string[] }> {
  const a = scripted(answers());
  const b = scripted(answers());
  const common = { apiKey: KEY, baseURL: BASE, logLevel: 'off' as const, ...options };
  const oz = await viaOz(new Oz({ ...common, fetch: a.fetch }));
  const core = await viaCore(new OzCore({ ...common, fetch: b.fetch }));
  return { oz, core, ozUrls: a.urls, coreUrls: b.urls };
}

const failure = (error: unknown) => (error instanceof Error ? { name: error.name, message: error.message } : { name: 'not an error', message: String(error) });

describe('the call path parts loaded on first use, through Oz and through OzCore', () => {
  it('a 401 to a legacy key off its plane: LegacyKeyError', async () => {
    const answers = () => [json(401, { error: { code: 'unauthorized', message: 'bad key' } }, { 'x-error-code': 'unauthorized' })];
    const { oz, core } = await bothClients(
      answers,
      { apiKey: 'sk-mdl-0123456789abcdef', maxRetries: 0 },
      async (client) => await rejectionOf(client.tools.get('echo')),
      async (c) => await rejectionOf(toolsGet(c, 'echo')),
    );
    expect(oz).toBeInstanceOf(LegacyKeyError);
    expect(core).toBeInstanceOf(LegacyKeyError);
    expect(failure(core)).toEqual(failure(oz));
  });

  it("no host at the embedded server's in-process address: the OzUsageError that says so, not retried", async () => {
    const noHost = () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND api.oz.test'), { code: 'ENOTFOUND' }) });
    };
    const { oz, core, ozUrls, coreUrls } = await bothClients(
      () => [noHost, noHost, noHost],
      { baseURL: 'http://api.oz.test' },
      async (client) => await rejectionOf(client.tools.get('echo')),
      async (c) => await rejectionOf(toolsGet(c, 'echo')),
    );
    expect(oz).toBeInstanceOf(OzUsageError);
    expect(core).toBeInstanceOf(OzUsageError);
    expect((core as Error).message).toContain('oz.test');
    expect(failure(core)).toEqual(failure(oz));
    expect([ozUrls.length, coreUrls.length]).toEqual([1, 1]);
  });

  it("validate: 'strict': an answer off its schema is an OzResponseValidationError, a right one passes", async () => {
    const answers = () => [json(200, { ...tool, name: 42 }), json(200, tool)];
    const { oz, core } = await bothClients(
      answers,
      { validate: 'strict' },
      async (client) => [await rejectionOf(client.tools.get('echo')), await client.tools.get('echo')],
      async (c) => [await rejectionOf(toolsGet(c, 'echo')), await toolsGet(c, 'echo')],
    );
    expect(oz[0]).toBeInstanceOf(OzResponseValidationError);
    expect(core[0]).toBeInstanceOf(OzResponseValidationError);
    expect(failure(core[0])).toEqual(failure(oz[0]));
    expect(core[1]).toEqual(tool);
    expect(oz[1]).toEqual(tool);
  });

  it('a 202 on the markdown wire: the async pointer read from its lines, with its wait()', async () => {
    const lines = 'workflow_id: null\nexecution_id: exe_p\ntask_id: null\nstatus: queued\n';
    const answers = () => [
      new Response(lines, { status: 202, headers: { 'content-type': 'text/markdown; charset=utf-8' } }),
      json(200, executionRecord('exe_p', 'succeeded', { content: 'done' })),
    ];
    const { oz, core, coreUrls } = await bothClients(
      answers,
      {},
      async (client) => {
        const pointer = await client.tools.execute('echo', { params: {}, async: true }, { format: 'markdown' });
        return { pointer: { ...pointer }, result: (await pointer.wait({ interval: 1 })).content };
      },
      async (c) => {
        const pointer = await toolsExecute(c, 'echo', { params: {}, async: true }, { format: 'markdown' });
        return { pointer: { ...pointer }, result: (await pointer.wait({ interval: 1 })).content };
      },
    );
    expect(core).toEqual({ pointer: { workflow_id: null, execution_id: 'exe_p', task_id: null, status: 'queued' }, result: 'done' });
    expect(oz).toEqual(core);
    expect(new URL(coreUrls[1]!).pathname).toBe('/v1/executions/exe_p');
  });

  it("a lost answer (the retry answers 409 duplicate_execution_id): the first run's result, read from its execution", async () => {
    const cut = () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    };
    const answers = () => [
      cut,
      json(409, { error: { code: 'duplicate_execution_id', message: 'used' } }, { 'x-error-code': 'duplicate_execution_id', 'x-execution-id': 'exe_lost' }),
      json(200, executionRecord('exe_lost', 'succeeded', { content: 'first run' })),
    ];
    const { oz, core, coreUrls } = await bothClients(
      answers,
      { retry: { initialDelayMs: 1, maxDelayMs: 2 } },
      async (client) => (await client.tools.execute('echo', { params: {} }, { idempotencyKey: 'exe_lost' })).content,
      async (c) => (await toolsExecute(c, 'echo', { params: {} }, { idempotencyKey: 'exe_lost' })).content,
    );
    expect(core).toBe('first run');
    expect(oz).toBe(core);
    expect(new URL(coreUrls.at(-1)!).pathname).toBe('/v1/executions/exe_lost');
  });

  it('a registered tracer provider: one client span per call, named by its operation', async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    try {
      const { oz, core } = await bothClients(
        () => [json(200, tool, { 'x-request-id': 'req_t' })],
        {},
        async (client) => await client.tools.get('echo'),
        async (c) => await toolsGet(c, 'echo'),
      );
      expect(core).toEqual(oz);
      const spans = exporter.getFinishedSpans();
      expect(spans.map((span) => [span.name, span.attributes['oz.request_id']])).toEqual([
        ['getTool', 'req_t'],
        ['getTool', 'req_t'],
      ]);
    } finally {
      trace.disable();
      context.disable();
    }
  });
});
