// The ecosystem scenario: what `npm run test:ecosystem` proves on each runtime, written in plain JavaScript so
// every runtime runs it unchanged. It gets the packed package's modules (imported or required by its caller) and
// answers a report: one entry per check, `ok` or the reason it failed.

/** The checks, in the order they run; the README's Compatibility table lists the same names. */
export const CHECKS = ['wires', 'stream + abort', 'typed errors', 'retries (Retry-After)', 'async wait', 'paging', 'raw client'];

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * Runs every check against one client. `server` is the embedded server behind it, or a stand-in for one in
 * another process: `faults.add(spec)` and `journal.count(operationId)`, each possibly async.
 */
async function runChecks(sdk, oz, server) {
  const results = {};
  const check = async (name, fn) => {
    try {
      await fn();
      results[name] = 'ok';
    } catch (error) {
      results[name] = `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}`;
    }
  };

  await check('wires', async () => {
    const json = await oz.tools.execute('echo', { text: 'wire' });
    assert(json.ok === true && json.content === 'wire' && json.execution_id.startsWith('exe_'), `json: ${JSON.stringify(json)}`);
    const yaml = await oz.tools.execute('echo', { text: 'wire' }, { format: 'yaml' });
    assert(yaml.content === 'wire', `yaml: ${JSON.stringify(yaml)}`);
    const markdown = await oz.tools.execute('echo', { text: 'wire' }, { format: 'markdown' });
    assert(typeof markdown === 'string' && markdown.startsWith('wire') && markdown.includes('execution_id: exe_'), `markdown: ${markdown}`);
    const text = await oz.tools.execute('echo', { text: 'wire' }, { format: 'text' });
    assert(text === 'wire', `text: ${text}`);
    const chat = await oz.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hi' }] });
    assert(chat.object === 'chat.completion', `models plane: ${JSON.stringify(chat)}`);
  });

  await check('stream + abort', async () => {
    const whole = await oz.agents.execute({ agent: 'writer', user_request: 'a b c', stream: true });
    const result = await whole.finalResult();
    assert(result.ok === true && whole.executionId?.startsWith('exe_'), `stream result: ${JSON.stringify(result)}`);
    const controller = new AbortController();
    const stream = await oz.agents.execute({ agent: 'writer', user_request: 'one two three four five six seven', stream: true }, { signal: controller.signal });
    let tokens = 0;
    let closing = false;
    let error;
    try {
      for await (const event of stream) {
        if (event.event === 'token' && ++tokens === 2) controller.abort();
        if (event.event === 'result' || event.event === 'error') closing = true;
      }
    } catch (caught) {
      error = caught;
    }
    // No event comes out after the abort, not even one that arrived in the same chunk.
    assert(tokens === 2 && !closing, `tokens ${tokens}, closing event ${closing}`);
    assert(error instanceof sdk.OzAbortError, `expected OzAbortError, got ${error}`);
  });

  await check('typed errors', async () => {
    const error = await oz.tools.execute('crm_lookup', { query: 'acme' }).catch((caught) => caught);
    assert(error instanceof sdk.ConnectionRequiredError && error instanceof sdk.OzAPIError, `got ${error}`);
    assert(error.status === 424 && error.code === 'connection_required' && error.connect?.provider === 'crm', `fields: ${error.status} ${error.code}`);
    const usage = (() => {
      try {
        new sdk.Oz({ baseURL: 'http://127.0.0.1:1/v1', apiKey: 'ozk_x' });
      } catch (caught) {
        return caught;
      }
    })();
    assert(usage instanceof sdk.OzUsageError, `baseURL ending in /v1: ${usage}`);
  });

  await check('retries (Retry-After)', async () => {
    const before = await server.journal.count('executeTool');
    await server.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 1 });
    const started = Date.now();
    const answer = await oz.tools.execute('echo', { text: 'again' });
    const waited = Date.now() - started;
    assert(answer.content === 'again', `answer: ${JSON.stringify(answer)}`);
    const attempts = (await server.journal.count('executeTool')) - before;
    assert(attempts === 2, `attempts: ${attempts}`);
    assert(waited >= 900, `waited ${waited} ms, Retry-After asked 1 s`);
  });

  await check('async wait', async () => {
    const pointer = await oz.tools.execute('slow', { ms: 50, async: true });
    assert(pointer.status === 'queued' || pointer.status === 'running', `pointer: ${JSON.stringify(pointer)}`);
    const done = await pointer.wait({ timeout: 30_000 });
    assert(done.ok === true && done.content === 'Waited 50 ms.', `result: ${JSON.stringify(done)}`);
  });

  await check('paging', async () => {
    const names = [];
    for await (const tool of oz.tools.list({ limit: 1 })) names.push(tool.name);
    assert(names.length >= 4 && names.includes('echo') && names.includes('slow'), `tools: ${names}`);
    const first = await oz.tools.list({ limit: 2 });
    assert(first.data.length === 2 && first.hasNextPage(), 'first page');
  });

  await check('raw client', async () => {
    const { data } = await oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'echo' } } });
    assert(data?.name === 'echo', `raw: ${JSON.stringify(data)}`);
    const error = await oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'nope' } } }).catch((caught) => caught);
    assert(error instanceof sdk.OzAPIError && error.status === 404, `raw error: ${error}`);
  });
  return results;
}

/**
 * Runs the checks in process (`server.fetch`) and, where `listen` is true, again over real HTTP on loopback
 * (`server.listen()`, the runtime's own `fetch`).
 */
export async function runScenario({ sdk, testing, listen }) {
  const server = testing.createOzServer();
  const report = { inProcess: {}, http: undefined };
  try {
    const local = new sdk.Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
    report.inProcess = await runChecks(sdk, local, server);
    if (listen) {
      const listener = await server.listen({ port: 0, mcpPort: 0 });
      try {
        const remote = new sdk.Oz({ baseURL: listener.url, apiKey: server.apiKey, logLevel: 'off' });
        report.http = await runChecks(sdk, remote, server);
      } finally {
        await listener.close();
      }
    }
  } finally {
    await server.close();
  }
  return report;
}

/**
 * Runs the checks over HTTP against a server in another process (where this runtime cannot listen itself):
 * `baseURL` and `apiKey` of its API, `controlURL` of a small control plane its host serves (`POST /faults`,
 * `GET /count?operationId=`).
 */
export async function runRemote({ sdk, baseURL, apiKey, controlURL }) {
  const control = {
    faults: {
      add: async (spec) => {
        const response = await fetch(`${controlURL}/faults`, { method: 'POST', body: JSON.stringify(spec) });
        if (!response.ok) throw new Error(`control: ${response.status}`);
      },
    },
    journal: {
      count: async (operationId) => Number(await (await fetch(`${controlURL}/count?operationId=${operationId}`)).text()),
    },
  };
  return await runChecks(sdk, new sdk.Oz({ baseURL, apiKey, logLevel: 'off' }), control);
}
