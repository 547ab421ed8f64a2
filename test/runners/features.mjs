// The runner matrix's features: the client's documented features, written once in plain JavaScript and run
// unchanged by every test runner of `npm run test:runners` (scripts/runner-matrix.mjs). A runner's entry file
// loads the packed package its own way (import or require, through its transform) and hands the modules in, so
// what is tested is how that runner loads oz-sdk. Each feature runs against the embedded server in process
// (`fetch: server.fetch`) and records its outcome in the file OZ_MATRIX_REPORT names, one JSON line per feature.
import { appendFileSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** The error a promise rejects with (fails when it resolves). */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, the call resolved');
}

/** A logger that keeps its lines, as a test's would. */
function recordingLogger() {
  const lines = [];
  const at = (level) => (message) => lines.push({ level, message: String(message) });
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/** A `fetch` over the embedded server that changes each answer: the stand-in for a service that drifted. */
function rewriting(server, change) {
  return async (input, init) => change(await server.fetch(input, init));
}

/**
 * The modules a runner loaded, and the server every feature talks to: `sdk` (oz-sdk), `testing`
 * (oz-sdk/testing), `funcs` (oz-sdk/funcs), `mcp` (oz-sdk/mcp), `mswNode` (msw/node) and, under jest, `msw`
 * (jest's registry keeps the package's own `require` from reaching the test's msw: README, "Under jest").
 */
export function openEnvironment(modules) {
  const server = modules.testing.createOzServer();
  const client = (options = {}) =>
    new modules.sdk.Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, mcpURL: server.mcpUrl, logLevel: 'off', ...options });
  return { ...modules, server, client };
}

export async function closeEnvironment(env) {
  await env?.server.close();
}

/** The features, in the order the table lists them. */
export const FEATURES = [
  {
    name: 'wires (json, yaml, markdown, text)',
    async run({ client }) {
      const oz = client();
      const json = await oz.tools.execute('echo', { text: 'wire' });
      assert(json.ok === true && json.content === 'wire' && json.execution_id.startsWith('exe_'), `json: ${JSON.stringify(json)}`);
      const yaml = await oz.tools.execute('echo', { text: 'wire' }, { format: 'yaml' });
      assert(yaml.ok === true && yaml.content === 'wire', `yaml: ${JSON.stringify(yaml)}`);
      const markdown = await oz.tools.execute('echo', { text: 'wire' }, { format: 'markdown' });
      assert(typeof markdown === 'string' && markdown.startsWith('wire') && markdown.includes('execution_id: exe_'), `markdown: ${markdown}`);
      const text = await oz.tools.execute('echo', { text: 'wire' }, { format: 'text' });
      assert(text === 'wire', `text: ${text}`);
      const yamlBody = await oz.tools.execute('echo', { text: 'sent as YAML' }, { bodyFormat: 'yaml' });
      assert(yamlBody.content === 'sent as YAML', `bodyFormat yaml: ${JSON.stringify(yamlBody)}`);
    },
  },
  {
    name: 'withResponse / asResponse / result',
    async run({ client, sdk }) {
      const oz = client();
      const { data, response, requestId, executionId } = await oz.tools.execute('echo', { text: 'parsed' }).withResponse();
      assert(
        data.content === 'parsed' && response.status === 200 && requestId?.startsWith('req_') && executionId === data.execution_id,
        `withResponse: ${requestId} ${executionId}`,
      );
      const raw = await oz.tools.execute('echo', { text: 'unread' }, { format: 'text' }).asResponse();
      assert(raw.status === 200 && raw.bodyUsed === false, `asResponse: ${raw.status} ${raw.bodyUsed}`);
      assert((await raw.text()) === 'unread', 'asResponse body');
      const ok = await oz.tools.get('echo').result();
      assert(ok.error === undefined && ok.data.name === 'echo', `result ok: ${JSON.stringify(ok.error)}`);
      const failed = await oz.tools.get('no_such_tool').result();
      assert(
        failed.data === undefined && failed.error instanceof sdk.ToolNotFoundError && failed.error.code === 'tool_not_found',
        `result error: ${failed.error}`,
      );
    },
  },
  {
    name: 'typed errors and 424 connect',
    async run({ client, sdk, server }) {
      const oz = client();
      const error = await rejection(oz.tools.execute('crm_lookup', { query: 'ada@example.com' }));
      assert(error instanceof sdk.ConnectionRequiredError && error instanceof sdk.Http424Error && error instanceof sdk.OzAPIError, `got ${error}`);
      assert(
        error.status === 424 && error.code === 'connection_required' && error.connect?.provider === 'crm',
        `fields: ${error.status} ${error.code} ${JSON.stringify(error.connect)}`,
      );
      const link = await oz.connections.link(error.connect.provider);
      assert(link.status === 'pending', `link: ${JSON.stringify(link)}`);
      server.linkConnection('demo', 'crm');
      const found = await oz.tools.execute('crm_lookup', { query: 'ada@example.com' });
      assert(found.ok === true, `after linking: ${JSON.stringify(found)}`);
      const usage = (() => {
        try {
          return client({ baseURL: 'http://127.0.0.1:1/v1' });
        } catch (caught) {
          return caught;
        }
      })();
      assert(usage instanceof sdk.OzUsageError, `baseURL ending in /v1: ${usage}`);
    },
  },
  {
    name: 'retry after a 429',
    async run({ client, server }) {
      const before = server.journal.count('executeTool');
      server.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 0 });
      const answer = await client().tools.execute('echo', { text: 'again' });
      assert(answer.content === 'again', `answer: ${JSON.stringify(answer)}`);
      const statuses = server.journal
        .filter('executeTool')
        .slice(before)
        .map((entry) => entry.status);
      assert(JSON.stringify(statuses) === '[429,200]', `attempts: ${statuses}`);
    },
  },
  {
    name: 'retry after a lost answer',
    async run({ client, server }) {
      server.faults.add({ operationId: 'executeTool', type: 'lose' });
      const charged = await client().tools.execute('echo', { text: 'charge card 4242' }, { idempotencyKey: 'exe_matrix-lost-answer' });
      assert(charged.content === 'charge card 4242' && charged.execution_id === 'exe_matrix-lost-answer', `answer: ${JSON.stringify(charged)}`);
      const attempts = server.journal.filter({ path: '/v1/tools/echo/execute' }).slice(-2);
      assert(attempts[0]?.fault === 'lose' && attempts[1]?.status === 409, `attempts: ${JSON.stringify(attempts.map((e) => [e.status, e.fault]))}`);
    },
  },
  {
    name: 'streams and their abort',
    async run({ client, sdk }) {
      const oz = client();
      const whole = await oz.agents.execute({ agent: 'writer', user_request: 'a haiku about tea', stream: true });
      let text = '';
      for await (const delta of whole.textDeltas()) text += delta;
      const result = await whole.finalResult();
      assert(result.ok === true && text.length > 0 && whole.executionId?.startsWith('exe_'), `stream: ${JSON.stringify(result)}`);
      // Aborted between two reads (the case): the next read rejects with OzAbortError naming the run.
      const controller = new AbortController();
      const stream = await oz.agents.execute({ agent: 'writer', user_request: 'one two three four five', stream: true }, { signal: controller.signal });
      const reader = stream[Symbol.asyncIterator]();
      await reader.next();
      controller.abort();
      const error = await rejection(reader.next());
      assert(error instanceof sdk.OzAbortError, `expected OzAbortError, got ${error}`);
      assert(
        error.executionId === stream.executionId && typeof error.executionId === 'string',
        `OzAbortError.executionId ${error.executionId}, the stream's ${stream.executionId}`,
      );
    },
  },
  {
    name: 'async run + wait',
    async run({ client }) {
      const oz = client();
      const pointer = await oz.workflows.executeStored('draft-and-review', { input: 'a release note', async: true });
      assert(pointer.execution_id.startsWith('exe_') && ['queued', 'running'].includes(pointer.status), `pointer: ${JSON.stringify(pointer)}`);
      const done = await pointer.wait({ timeout: 60_000 });
      assert(done.ok === true && typeof done.content === 'string', `waited: ${JSON.stringify(done)}`);
      const stored = JSON.parse(JSON.stringify(await oz.tools.execute('slow', { ms: 20, async: true })));
      const later = await oz.executions.wait(stored, { timeout: 60_000 });
      assert(later.content === 'Waited 20 ms.', `stored pointer: ${JSON.stringify(later)}`);
    },
  },
  {
    name: 'paging with a stored cursor',
    async run({ client }) {
      const oz = client();
      const all = [];
      for await (const tool of oz.tools.list({ limit: 1 })) all.push(tool.name);
      assert(all.length >= 4 && all.includes('echo'), `every tool: ${all}`);
      const first = await oz.tools.list({ limit: 2 });
      assert(first.data.length === 2 && first.hasNextPage() && typeof first.next_cursor === 'string', 'first page');
      const saved = JSON.stringify({ cursor: first.next_cursor });
      const second = await oz.tools.list({ limit: 2, cursor: JSON.parse(saved).cursor });
      assert(
        JSON.stringify(second.data.map((t) => t.name)) === JSON.stringify(all.slice(2, 4)),
        `page from the stored cursor: ${second.data.map((t) => t.name)}`,
      );
    },
  },
  {
    name: 'validate strict / warn',
    async run({ client, sdk, server }) {
      const drifted = rewriting(server, async (answer) =>
        Response.json({ ...(await answer.json()), name: 42 }, { status: answer.status, headers: answer.headers }),
      );
      const valid = await client({ validate: 'strict' }).tools.get('echo');
      assert(valid.name === 'echo', 'a valid answer passes');
      const error = await rejection(client({ fetch: drifted, validate: 'strict' }).tools.get('echo'));
      assert(error instanceof sdk.OzResponseValidationError && error.path === '$.name' && error.value === 42, `strict: ${error} ${error?.path}`);
      const logger = recordingLogger();
      const warned = await client({ fetch: drifted, validate: 'warn', logger, logLevel: 'warn' }).tools.get('echo');
      assert(warned.name === 42, 'warn hands the data over');
      assert(
        logger.lines.some((line) => line.level === 'warn' && line.message.includes('$.name')),
        `warn lines: ${JSON.stringify(logger.lines)}`,
      );
    },
  },
  {
    name: 'middleware',
    async run({ client, server, sdk }) {
      const seen = [];
      const tagging = async (request, next, context) => {
        const response = await next(new Request(request, { headers: { ...Object.fromEntries(request.headers), 'x-team': 'billing' } }));
        seen.push(`${context.operationId} ${context.attempt} ${response.status}`);
        return response;
      };
      const oz = client({ middleware: [tagging] });
      server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 0, times: 1 });
      const answer = await oz.tools.execute('echo', { text: 'seen twice' });
      assert(answer.content === 'seen twice', `answer: ${JSON.stringify(answer)}`);
      assert(JSON.stringify(seen) === JSON.stringify(['executeTool 0 500', 'executeTool 1 200']), `attempts seen: ${seen}`);
      assert(server.journal.filter('executeTool').at(-1).headers['x-team'] === 'billing', 'the changed request reached the server');
      const cached = async () => Response.json({ name: 'echo', description: 'from my cache' });
      const tool = await oz.tools.get('echo', { middleware: [cached] });
      assert(tool.description === 'from my cache', `answered by middleware: ${JSON.stringify(tool)}`);
      const policy = async () => {
        throw new Error('deletes are off today');
      };
      const error = await rejection(oz.withOptions({ middleware: [policy] }).workflows.delete('draft-and-review'));
      assert(error instanceof sdk.OzMiddlewareError && error.middlewareIndex === 1, `thrown: ${error}`);
    },
  },
  {
    name: 'key provider (apiKey function)',
    async run({ client, server }) {
      const next = server.addKey({ account: 'demo', name: 'matrix rotated key', expiresInDays: 30 });
      const secrets = { current: server.apiKey };
      let asked = 0;
      const oz = client({
        apiKey: async () => {
          asked++;
          return secrets.current;
        },
      });
      assert((await oz.whoami()).key_label === 'demo key', 'first key');
      secrets.current = next.key;
      assert((await oz.whoami()).key_label === 'matrix rotated key', 'the switched key');
      assert(asked >= 2, `asked ${asked} times`);
    },
  },
  {
    name: 'withOptions',
    async run({ client, server, sdk }) {
      const oz = client();
      const strict = oz.withOptions({ maxRetries: 0, timeout: 5_000 });
      assert(strict.maxRetries === 0 && strict.timeout === 5_000 && oz.maxRetries === 2, `options: ${strict.maxRetries} ${strict.timeout}`);
      const before = server.journal.count('executeTool');
      server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 0 });
      const error = await rejection(strict.tools.execute('echo', { text: 'once only' }));
      assert(error instanceof sdk.InternalError && server.journal.count('executeTool') - before === 1, `no retry: ${error}`);
      const other = server.addKey({ account: 'demo', name: 'matrix other key' });
      assert((await oz.withOptions({ apiKey: other.key }).whoami()).key_label === 'matrix other key', 'another key');
    },
  },
  {
    name: 'deprecation warnings',
    async run({ client, server }) {
      const logger = recordingLogger();
      const deprecated = rewriting(server, (answer) => {
        const headers = new Headers(answer.headers);
        headers.set('deprecation', '@1798761600');
        headers.set('sunset', 'Wed, 01 Dec 2027 00:00:00 GMT');
        return new Response(answer.body, { status: answer.status, headers });
      });
      const agent = await client({ fetch: deprecated, logger, logLevel: 'warn' }).agents.get('writer');
      // Right after the call, with nothing awaited in between: the warning was logged before the promise settled.
      const lines = logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);
      assert(agent.name === 'writer', 'the answer');
      assert(lines.length === 1 && lines[0].includes('getAgent') && lines[0].includes('Sunset'), `warnings when the call resolved: ${JSON.stringify(lines)}`);
    },
  },
  {
    name: 'raw calls',
    async run({ client, sdk }) {
      const oz = client();
      const { data: tool } = await oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'echo' } } });
      assert(tool?.name === 'echo', `raw GET: ${JSON.stringify(tool)}`);
      const { data: result } = await oz.raw.POST('/v1/tools/{tool}/execute', { params: { path: { tool: 'echo' } }, body: { text: 'raw call' } });
      assert(result?.content === 'raw call', `raw POST: ${JSON.stringify(result)}`);
      const { data: markdown } = await oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'sum' }, query: { format: 'markdown' } }, parseAs: 'text' });
      assert(markdown?.split('\n')[0] === 'name: sum', `raw markdown: ${markdown}`);
      const error = await rejection(oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'no-such-tool' } } }));
      assert(error instanceof sdk.ToolNotFoundError && error.status === 404, `raw error: ${error}`);
    },
  },
  {
    name: 'standalone functions (oz-sdk/funcs)',
    async run({ funcs, sdk, server }) {
      const core = new funcs.OzCore({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
      const result = await funcs.toolsExecute(core, 'echo', { text: 'one function' });
      assert(result.ok === true && result.content === 'one function', `toolsExecute: ${JSON.stringify(result)}`);
      const yaml = await funcs.toolsExecute(core, 'echo', { text: 'yaml' }, { format: 'yaml' });
      assert(yaml.content === 'yaml', `yaml: ${JSON.stringify(yaml)}`);
      const { error } = await funcs.toolsGet(core, 'no-such-tool').result();
      assert(error instanceof sdk.ToolNotFoundError && error.code === 'tool_not_found', `toolsGet error: ${error}`);
    },
  },
  {
    name: 'MCP client (oz-sdk/mcp)',
    async run({ client, server, mcp }) {
      const oz = client();
      assert(oz.mcp instanceof mcp.McpClient, 'oz.mcp is the McpClient of oz-sdk/mcp');
      const session = await oz.mcp.initialize();
      assert(session.protocolVersion === mcp.MCP_PROTOCOL_VERSION, `protocol: ${session.protocolVersion}`);
      const tools = (await oz.mcp.listTools()).map((tool) => tool.name);
      assert(tools.includes('svc_whoami') && tools.includes('writer'), `tools: ${tools}`);
      const called = await oz.mcp.callTool('writer', { user_request: 'a limerick about queues' });
      assert(called.content[0]?.text.includes('execution_id: exe_'), `callTool: ${JSON.stringify(called)}`);
      const me = await oz.mcp.whoami();
      assert(me.user === 'demo', `whoami: ${JSON.stringify(me)}`);
      const fenced = oz.withOptions({ apiKey: server.addKey({ account: 'demo', name: 'whoami only', tools: ['svc_whoami'] }).key });
      const error = await rejection(fenced.mcp.callTool('writer', { user_request: 'hello' }));
      assert(error instanceof mcp.McpToolFencedError && error.code === -32602, `fenced: ${error}`);
    },
  },
  {
    name: 'profile file (OZ_PROFILE, OZ_CONFIG_DIR)',
    async run({ sdk, server }) {
      const dir = process.env.OZ_CONFIG_DIR;
      assert(
        dir && process.env.OZ_PROFILE === 'matrix' && !process.env.OZ_API_KEY,
        'the runner was started with OZ_CONFIG_DIR and OZ_PROFILE=matrix, without OZ_API_KEY',
      );
      const key = server.addKey({ account: 'demo', name: 'matrix profile key' }).key;
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'profiles.json');
      writeFileSync(file, JSON.stringify({ version: 1, current: 'default', profiles: { default: { api_key: server.apiKey }, matrix: { api_key: key } } }));
      chmodSync(file, 0o600);
      const oz = new sdk.Oz({ baseURL: server.url, fetch: server.fetch, logLevel: 'off' });
      assert((await oz.whoami()).key_label === 'matrix profile key', 'the key of the profile OZ_PROFILE names');
    },
  },
  {
    name: 'msw mount',
    async run({ sdk, server, msw, mswNode }) {
      assert(typeof mswNode?.setupServer === 'function', 'msw/node was not loaded');
      const interceptor = mswNode.setupServer(...server.handlers(msw ? { msw } : undefined));
      interceptor.listen({ onUnhandledRequest: 'error' });
      try {
        const oz = new sdk.Oz({ baseURL: server.url, apiKey: server.apiKey, logLevel: 'off' });
        const answer = await oz.tools.execute('echo', { text: 'through msw' });
        assert(answer.content === 'through msw', `answer: ${JSON.stringify(answer)}`);
        assert(server.journal.last('executeTool')?.mount === 'msw', `mount: ${server.journal.last('executeTool')?.mount}`);
      } finally {
        interceptor.close();
      }
    },
  },
];

/** Runs one feature and records its outcome (`ok`, or the error's name and message); rethrows its failure. */
export async function runFeature(feature, env) {
  const record = (outcome) => {
    if (process.env.OZ_MATRIX_REPORT) appendFileSync(process.env.OZ_MATRIX_REPORT, `${JSON.stringify({ feature: feature.name, outcome })}\n`);
  };
  try {
    await feature.run(env);
    record('ok');
  } catch (error) {
    const cause = error?.cause ? ` (cause: ${error.cause?.code ?? error.cause?.message ?? error.cause})` : '';
    record(`${error?.name ?? 'Error'}: ${error?.message ?? String(error)}${cause}`.slice(0, 300));
    throw error;
  }
}

/**
 * Registers every feature as one test of the runner: `runner` gives its `test(name, fn)`, `beforeAll(fn)` and
 * `afterAll(fn)`; `modules` are what the runner loaded (see openEnvironment).
 */
export function registerFeatures(runner, modules) {
  let env;
  runner.beforeAll(() => {
    env = openEnvironment(modules);
  });
  runner.afterAll(() => closeEnvironment(env));
  for (const feature of FEATURES) runner.test(feature.name, () => runFeature(feature, env));
}
