/**
 * Every step of the call path that a default call skips (a call's own settings, the words of a caller's mistake,
 * the retry loop after a first attempt that is not a 2xx, the failed attempt's typed error, the redirect follower,
 * debug lines, other wires than JSON and YAML bodies, spans, streams, pointers, validation, lost answers, the
 * in-process and legacy-key hints) and the readers of withResponse(), asResponse() and result() work the same
 * through both clients: each is called through `oz.<method>` and through its standalone function, and both answer
 * the same.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { OzCore, toolsExecute, toolsGet } from '../../src/funcs/index.js';
import {
  LegacyKeyError,
  Oz,
  OzAPIError,
  OzConnectionError,
  OzRedirectError,
  OzResponseValidationError,
  OzTimeoutError,
  OzUsageError,
  type ClientOptions,
} from '../../src/index.js';
import { OWN_SETTINGS } from '../../src/core/options/callSettings.js';
import type { RequestOptions } from '../../src/core/shared/requestOptions.js';
import { KEY, recordingLogger, rejectionOf } from '../core/support/clients.js';
import { executionRecord } from '../core/support/executionRecord.js';

type Answer = Response | ((init?: RequestInit) => Response | Promise<Response> | never);

/** A fetch that answers `answers` in order (a function may throw, as a failed connection does), recording URLs. */
function scripted(answers: Answer[]) {
  const urls: string[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    urls.push(String(input instanceof Request ? input.url : input));
    const next = answers.shift();
    if (next === undefined) throw new Error(`unscripted request ${String(input)}`);
    return typeof next === 'function' ? await next(init) : next;
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

describe('the call path, through Oz and through OzCore', () => {
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
  it('a first answer that is not 2xx: the retry loop retries it (Retry-After), then gives up with the typed error', async () => {
    const busy = () => json(503, { error: { code: 'service_unavailable', message: 'busy' } }, { 'x-error-code': 'service_unavailable', 'retry-after-ms': '1' });
    const answers = () => [busy(), json(200, tool), busy(), busy()];
    const { oz, core, ozUrls, coreUrls } = await bothClients(
      answers,
      { maxRetries: 1 },
      async (client) => [await client.tools.get('echo'), failure(await rejectionOf(client.tools.get('echo')))],
      async (c) => [await toolsGet(c, 'echo'), failure(await rejectionOf(toolsGet(c, 'echo')))],
    );
    expect(core).toEqual([tool, { name: 'Http5xxError', message: expect.stringContaining('busy') }]);
    expect(core).toEqual(oz);
    expect([ozUrls.length, coreUrls.length]).toEqual([4, 4]);
    const { error } = await toolsGet(
      new OzCore({ apiKey: KEY, baseURL: BASE, logLevel: 'off', maxRetries: 0, fetch: scripted([busy()]).fetch }),
      'echo',
    ).result();
    expect(error).toBeInstanceOf(OzAPIError);
    expect((error as OzAPIError).status).toBe(503);
  });

  it('a failed connection, then a timeout: the typed error of each attempt, retried as the rule says', async () => {
    const reset = () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    };
    // A fetch that answers only when its signal aborts (as fetch does): the attempt's deadline ends it.
    const never = (init?: RequestInit) => new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const { oz, core } = await bothClients(
      () => [reset, json(200, tool), reset, never],
      { retry: { initialDelayMs: 1, maxDelayMs: 1 } },
      async (client) => [
        await client.tools.get('echo'),
        await rejectionOf(client.tools.get('echo', { maxRetries: 0 })),
        await rejectionOf(client.tools.get('echo', { maxRetries: 0, timeout: 20 })),
      ],
      async (c) => [
        await toolsGet(c, 'echo'),
        await rejectionOf(toolsGet(c, 'echo', { maxRetries: 0 })),
        await rejectionOf(toolsGet(c, 'echo', { maxRetries: 0, timeout: 20 })),
      ],
    );
    expect(core[0]).toEqual(tool);
    expect(core[1]).toBeInstanceOf(OzConnectionError);
    expect(core[1]).not.toBeInstanceOf(OzTimeoutError);
    expect(core[2]).toBeInstanceOf(OzTimeoutError);
    expect(core.slice(1).map(failure)).toEqual(oz.slice(1).map(failure));
  });

  it('a redirect: followed within the origin, an OzRedirectError to another one (nothing sent there)', async () => {
    const moved = (location: string) => new Response(null, { status: 307, headers: { location } });
    const { oz, core, ozUrls, coreUrls } = await bothClients(
      () => [moved('/v1/tools/echo2'), json(200, tool), moved('http://elsewhere.test/v1/tools/echo')],
      {},
      async (client) => [await client.tools.get('echo'), await rejectionOf(client.tools.get('echo'))],
      async (c) => [await toolsGet(c, 'echo'), await rejectionOf(toolsGet(c, 'echo'))],
    );
    expect(core[0]).toEqual(tool);
    expect(core[1]).toBeInstanceOf(OzRedirectError);
    expect(failure(core[1])).toEqual(failure(oz[1]));
    expect(coreUrls).toEqual([`${BASE}/v1/tools/echo`, `${BASE}/v1/tools/echo2`, `${BASE}/v1/tools/echo`]);
    expect(coreUrls).toEqual(ozUrls);
  });

  it("logLevel: 'debug': the lines of each attempt, the key redacted", async () => {
    const lines = (into: string[]) => ({
      error: () => undefined,
      warn: () => undefined,
      info: () => undefined,
      debug: (line: string, detail?: unknown) => into.push(`${line} ${JSON.stringify(detail)}`),
    });
    const ozLines: string[] = [];
    const coreLines: string[] = [];
    await new Oz({ apiKey: KEY, baseURL: BASE, logLevel: 'debug', logger: lines(ozLines), fetch: scripted([json(200, tool)]).fetch }).tools.get('echo');
    await toolsGet(new OzCore({ apiKey: KEY, baseURL: BASE, logLevel: 'debug', logger: lines(coreLines), fetch: scripted([json(200, tool)]).fetch }), 'echo');
    expect(coreLines).toHaveLength(2);
    expect(coreLines[0]).toContain('GET http://127.0.0.1:9/v1/tools/echo (attempt 1 of 3)');
    expect(coreLines[0]).toContain('"authorization":"[redacted]"');
    expect(coreLines.join('\n')).not.toContain(KEY);
    expect(coreLines[1]).toContain('200 after');
    expect(coreLines.map((line) => line.replace(/#\d+\]/, '#n]').replace(/after \d+ ms/, 'after n ms'))).toEqual(
      ozLines.map((line) => line.replace(/#\d+\]/, '#n]').replace(/after \d+ ms/, 'after n ms')),
    );
  });

  it('a YAML body and an answer on another wire than JSON: sent and read as with Oz', async () => {
    const sent: string[] = [];
    const yamlAnswer = () => new Response('ok: true\ncontent: hi\n', { status: 200, headers: { 'content-type': 'text/yaml' } });
    const record =
      (fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>) => async (input: string | URL | Request, init?: RequestInit) => {
        sent.push(`${new Headers(init?.headers).get('content-type')} ${String(init?.body)}`);
        return await fetch(input, init);
      };
    const oz = new Oz({ apiKey: KEY, baseURL: BASE, logLevel: 'off', fetch: record(scripted([yamlAnswer()]).fetch) });
    const core = new OzCore({ apiKey: KEY, baseURL: BASE, logLevel: 'off', fetch: record(scripted([yamlAnswer()]).fetch) });
    const viaOz = await oz.tools.execute('echo', { params: { text: 'hi' } }, { bodyFormat: 'yaml', format: 'yaml' });
    const viaCore = await toolsExecute(core, 'echo', { params: { text: 'hi' } }, { bodyFormat: 'yaml', format: 'yaml' });
    expect(viaCore).toEqual({ ok: true, content: 'hi' });
    expect(viaCore).toEqual(viaOz);
    expect(sent).toEqual(['text/yaml params:\n  text: hi\n', 'text/yaml params:\n  text: hi\n']);
  });

  it('withResponse(), asResponse() and result(): the same answers through OzCore as through Oz', async () => {
    const answer = () => json(200, tool, { 'x-request-id': 'req_1', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '' });
    const missing = () => json(404, { error: { code: 'tool_not_found', message: 'no such tool' } }, { 'x-error-code': 'tool_not_found' });
    const { oz, core } = await bothClients(
      () => [answer(), answer(), missing()],
      { maxRetries: 0 },
      async (client) => {
        const { data, requestId, rateLimit } = await client.tools.get('echo').withResponse();
        const raw = await (await client.tools.get('echo').asResponse()).json();
        const { error, response } = await client.tools.get('nope').result();
        return { data, requestId, rateLimit, raw, code: error?.code, status: response?.status };
      },
      async (c) => {
        const { data, requestId, rateLimit } = await toolsGet(c, 'echo').withResponse();
        const raw = await (await toolsGet(c, 'echo').asResponse()).json();
        const { error, response } = await toolsGet(c, 'nope').result();
        return { data, requestId, rateLimit, raw, code: error?.code, status: response?.status };
      },
    );
    expect(core).toEqual({
      data: tool,
      requestId: 'req_1',
      rateLimit: { limit: 100, remaining: 99, reset: null },
      raw: tool,
      code: 'tool_not_found',
      status: 404,
    });
    expect(core).toEqual(oz);
  });
  it('an apiKey function: asked for every call and once more after a 401, its keys scrubbed, through OzCore as through Oz', async () => {
    const unauthorized = () => json(401, { error: { code: 'unauthorized', message: 'bad key' } }, { 'x-error-code': 'unauthorized' });
    const run = async (viaOz: boolean) => {
      const keys = ['ozk_first', 'ozk_first', 'ozk_second'];
      const sent: string[] = [];
      const answers = [json(200, tool), unauthorized(), json(200, tool)];
      const fetch = async (_input: string | URL | Request, init?: RequestInit) => {
        sent.push(new Headers(init?.headers).get('authorization')!);
        return answers.shift()!;
      };
      const options = { apiKey: () => keys.shift()!, baseURL: BASE, logLevel: 'off' as const, maxRetries: 0, fetch };
      const first = viaOz ? await new Oz(options).tools.get('echo') : await toolsGet(new OzCore(options), 'echo');
      const second = viaOz ? await new Oz(options).tools.get('echo') : await toolsGet(new OzCore(options), 'echo');
      return { first, second, sent };
    };
    const [oz, core] = [await run(true), await run(false)];
    expect(core).toEqual({ first: tool, second: tool, sent: ['Bearer ozk_first', 'Bearer ozk_first', 'Bearer ozk_second'] });
    expect(core).toEqual(oz);
    const failing = await rejectionOf(toolsGet(new OzCore({ apiKey: () => '', baseURL: BASE, logLevel: 'off' }), 'echo'));
    expect(failing).toBeInstanceOf(OzUsageError);
    expect((failing as Error).message).toMatch(/^The apiKey function gave an empty string/);
  });

  it("a caller's mistake found before anything is sent: the same OzUsageError through both, nothing sent", async () => {
    const mistakes: Array<[string, (c: Oz | OzCore) => Promise<unknown>, RegExp]> = [
      [
        'header name',
        (c) => get(c, 'echo', { headers: { 'bad name': 'x' } }),
        /^The header name "bad name" \(from headers\) is not a valid HTTP header name; nothing was sent\.$/,
      ],
      [
        'header value',
        (c) => get(c, 'echo', { headers: { 'x-a': 'one\r\ntwo' } }),
        /^The header "x-a" \(from headers\) has a value holding a line break \(CR or LF\), which no HTTP header may carry; nothing was sent\.$/,
      ],
      [
        'header type',
        (c) => get(c, 'echo', { headers: { 'x-a': 5 as never } }),
        /^The header "x-a" \(from headers\) must be a string, not number; nothing was sent\.$/,
      ],
      ['non-Latin-1', (c) => get(c, 'echo', { idempotencyKey: 'k\u2028' }), /holding a character outside Latin-1 \(U\+2028\)/],
      [
        'dot segment',
        (c) => get(c, '..'),
        /^Path parameter "tool" of getTool \(GET \/v1\/tools\/\{tool\}\) holds a "\." or "\.\." segment \(".."\), which would move the request to another route; nothing was sent\.$/,
      ],
      ['empty path parameter', (c) => get(c, ''), /^Missing path parameter "tool" of getTool\.$/],
      ['maxRetries', (c) => get(c, 'echo', { maxRetries: -1 }), /^maxRetries must be a whole number >= 0, not -1\.$/],
      ['timeout', (c) => get(c, 'echo', { timeout: 0 }), /^timeout must be a number of milliseconds > 0, not 0\.$/],
      ['a key with a line break', (c) => get(c, 'echo', { apiKey: 'key\n' }), /^The header "authorization" \(from apiKey\) has a value holding a line break/],
    ];
    for (const [what, call, message] of mistakes) {
      const { oz, core, ozUrls, coreUrls } = await bothClients(
        () => [],
        {},
        (client) => rejectionOf(call(client)),
        (c) => rejectionOf(call(c)),
      );
      expect(core, what).toBeInstanceOf(OzUsageError);
      expect((core as Error).message, what).toMatch(message);
      expect(failure(core), what).toEqual(failure(oz));
      expect([...ozUrls, ...coreUrls], what).toEqual([]);
    }
  });

  it('each call option that changes how a call is made (OWN_SETTINGS), given to one call of OzCore, is applied to it', async () => {
    type Sent = { url: string; headers: Headers; keepalive: boolean | undefined };
    const sent: Sent[] = [];
    const recordingFetch = (answer: () => Response) => async (input: string | URL | Request, init?: RequestInit) => {
      const request = input instanceof Request ? input : undefined;
      sent.push({ url: request?.url ?? String(input), headers: new Headers(request?.headers ?? init?.headers), keepalive: init?.keepalive });
      return answer();
    };
    const client = recordingLogger();
    const core = new OzCore({ apiKey: KEY, baseURL: BASE, logLevel: 'off', logger: client, maxRetries: 1, fetch: recordingFetch(() => json(200, tool)) });
    const busy = () => json(503, { error: { code: 'service_unavailable', message: 'busy' } }, { 'x-error-code': 'service_unavailable', 'retry-after-ms': '1' });
    const own = recordingLogger();
    // What each option does to one call (the core's next call is made as before: checked after the table).
    const cases: Record<(typeof OWN_SETTINGS)[number], { options: RequestOptions; then: (outcome: unknown) => void }> = {
      apiKey: { options: { apiKey: 'key-of-the-call' }, then: () => expect(sent.at(-1)!.headers.get('authorization')).toBe('Bearer key-of-the-call') },
      baseURL: { options: { baseURL: 'http://127.0.0.1:8' }, then: () => expect(sent.at(-1)!.url).toBe('http://127.0.0.1:8/v1/tools/echo') },
      authHeader: {
        options: { authHeader: 'x-api-key' },
        then: () => expect([sent.at(-1)!.headers.get('x-api-key'), sent.at(-1)!.headers.get('authorization')]).toEqual([KEY, null]),
      },
      middleware: {
        options: {
          middleware: [
            async (request, next) => next(new Request(request, { headers: { ...Object.fromEntries(request.headers), 'x-from-middleware': 'yes' } })),
          ],
        },
        then: () => expect(sent.at(-1)!.headers.get('x-from-middleware')).toBe('yes'),
      },
      retry: {
        options: { retry: { shouldRetry: () => false }, fetch: recordingFetch(busy) },
        then: (outcome) => expect([(outcome as OzAPIError).status, sent.length]).toEqual([503, 1]),
      },
      logger: {
        options: { logger: own, logLevel: 'debug' },
        then: () => expect(own.lines.map((line) => line.level)).toEqual(['warn', 'warn', 'debug', 'debug']),
      }, // two deprecation warnings: a client's options
      logLevel: { options: { logLevel: 'debug' }, then: () => expect(client.lines.map((line) => line.level)).toEqual(['debug', 'debug']) }, // warned of once per client: above
      validate: {
        options: { validate: 'strict', fetch: recordingFetch(() => json(200, { name: 5 })) },
        then: (outcome) => expect(outcome).toBeInstanceOf(OzResponseValidationError),
      },
      idleTimeout: {
        options: { idleTimeout: 0 },
        then: (outcome) =>
          expect([(outcome as Error).message, sent.length]).toEqual(['idleTimeout must be a number of milliseconds > 0 (or Infinity), not 0.', 0]),
      },
      maxEventBytes: {
        options: { maxEventBytes: 0.5 },
        then: (outcome) =>
          expect([(outcome as Error).message, sent.length]).toEqual(['maxEventBytes must be a whole number of bytes >= 1 (or Infinity), not 0.5.', 0]),
      },
      streamTimeout: {
        options: { streamTimeout: -1 },
        then: (outcome) =>
          expect([(outcome as Error).message, sent.length]).toEqual(['streamTimeout must be a number of milliseconds > 0 (or Infinity), not -1.', 0]),
      },
      fetch: {
        options: { fetch: recordingFetch(() => json(200, { ...tool, name: 'from the call' })) },
        then: (outcome) => expect((outcome as { name: string }).name).toBe('from the call'),
      },
      fetchOptions: { options: { fetchOptions: { keepalive: true } }, then: () => expect(sent.at(-1)!.keepalive).toBe(true) },
    };
    for (const [name, { options, then }] of Object.entries(cases)) {
      sent.length = 0;
      const { data, error } = await toolsGet(core, 'echo', options).result();
      then(error ?? data);
      // The core's own settings are as they were: its key, its address, its header, no middleware, its fetch.
      sent.length = 0;
      expect(await toolsGet(core, 'echo'), name).toEqual(tool);
      expect([sent[0]!.url, sent[0]!.headers.get('authorization'), sent[0]!.headers.get('x-from-middleware'), sent[0]!.keepalive], name).toEqual([
        `${BASE}/v1/tools/echo`,
        `Bearer ${KEY}`,
        null,
        undefined,
      ]);
    }
    expect(Object.keys(cases).sort()).toEqual([...OWN_SETTINGS].sort());
  });
});

/** `tools.get` through either client. */
function get(client: Oz | OzCore, name: string, options?: RequestOptions): Promise<unknown> {
  return client instanceof Oz ? client.tools.get(name, options) : toolsGet(client, name, options);
}
