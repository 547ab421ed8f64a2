/**
 * The built `oz` bin against the built oz-mock on loopback, as a user runs them: child processes, their output
 * and exit codes. One command per operation tag, every wire, a stream, `--async`/`--wait`, `--all`, a retried
 * write whose first answer was lost, and each exit code family.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configDir, finished, oz, spawnOz, startMock, type MockServer } from './support/ozProcess.js';

let mock: MockServer;
let config: ReturnType<typeof configDir>;
let env: Record<string, string>;

beforeAll(async () => {
  mock = await startMock();
  config = configDir();
  env = { OZ_BASE_URL: mock.url, OZ_API_KEY: mock.apiKey, OZ_CONFIG_DIR: config.path };
  await mock.control('POST', '/fixtures', {
    tools: [{ name: 'slow', description: 'Takes a minute.', input_schema: { type: 'object', properties: {} }, answer: 'late', delay_ms: 60_000 }],
  });
}, 60_000);

afterAll(async () => {
  await mock?.stop();
  config?.remove();
});

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('oz: one command per operation tag', { timeout: 90_000 }, () => {
  const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { tags?: string[] }>>;
  };
  const tags = new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])));
  const BY_TAG: Record<string, { args: string[]; check: (out: Record<string, unknown>) => void }> = {
    meta: { args: ['meta', 'health'], check: (out) => expect(out.status).toBe('ok') },
    models: { args: ['models', 'list'], check: (out) => expect(Array.isArray(out.data)).toBe(true) },
    tools: { args: ['tools', 'get', 'echo'], check: (out) => expect(out.name).toBe('echo') },
    agents: { args: ['agents', 'get', 'writer'], check: (out) => expect(out.name).toBe('writer') },
    workflows: { args: ['workflows', 'list'], check: (out) => expect(out).toHaveProperty('next_cursor') },
    schedules: { args: ['schedules', 'list', '--limit', '5'], check: (out) => expect(out).toHaveProperty('data') },
    executions: { args: ['executions', 'list', '--status', 'succeeded'], check: (out) => expect(out).toHaveProperty('data') },
    discovery: { args: ['discovery', 'search', '--q', 'echo', '--kind', 'tool'], check: (out) => expect(JSON.stringify(out)).toContain('echo') },
    traces: { args: ['traces', 'list', '--limit', '1'], check: (out) => expect(out).toHaveProperty('data') },
    connections: { args: ['connections', 'link', 'crm', '--method', 'oauth'], check: (out) => expect(out.provider).toBe('crm') },
    companies: {
      args: ['companies', 'items', 'create', 'acme', '--building', 'hq', '--title', 'Ship it', '--priority', '2', '--kind', 'docs'],
      check: (out) => expect(out).toMatchObject({ title: 'Ship it', priority: 2, kind: 'docs', step: 'intake' }),
    },
    mcp: {
      args: ['mcp', 'request', '--jsonrpc', '2.0', '--id', '1', '--method', 'tools/list'],
      check: (out) => expect(JSON.stringify(out)).toContain('svc_whoami'),
    },
    proxy: { args: ['proxy', 'get', 'crm', 'contacts'], check: (out) => expect(out).toBeTypeOf('object') },
  };

  it('covers every tag of openapi.json', () => {
    expect(new Set(Object.keys(BY_TAG))).toEqual(tags);
  });

  for (const [tag, { args, check }] of Object.entries(BY_TAG)) {
    it(`${tag}: oz ${args.join(' ')}`, async () => {
      const run = await oz(args, env);
      if (tag === 'proxy' && run.code === 1) {
        // The demo account has no crm connection: the proxy answers 424 with where to make it.
        expect(json(run.stderr)).toMatchObject({ error: { code: 'connection_required' } });
        return;
      }
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      check(json(run.stdout));
    });
  }
});

describe('oz: wires, streams, runs and pages', { timeout: 90_000 }, () => {
  it('prints every wire piped as the service answers it, byte for byte', async () => {
    const wire = (format: string) => oz(['tools', 'execute', 'echo', '--text', 'four wires', '--format', format], env);
    const [asJson, asYaml, asMarkdown, asText] = await Promise.all([wire('json'), wire('yaml'), wire('markdown'), wire('text')]);
    expect(asJson.stdout.trim().split('\n')).toHaveLength(1);
    expect(json(asJson.stdout)).toMatchObject({ ok: true, content: 'four wires' });
    expect(asYaml.stdout).toMatch(/^ok: true\ncontent: \|-\n {2}four wires\n/);
    expect(asMarkdown.stdout).toMatch(/^four wires\n[\s\S]*execution_id: exe_/);
    expect(asText.stdout).toBe('four wires');
  });

  it('--stream prints the tokens as text, and the events as NDJSON with --format json', async () => {
    const text = await oz(['agents', 'execute', '--agent', 'writer', '--user-request', 'a haiku', '--stream'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('Here is a draft for: a haiku\n');
    const events = await oz(['agents', 'execute', '--agent', 'writer', '--user-request', 'a haiku', '--stream', '--format', 'json'], env);
    const lines = events.stdout.trim().split('\n').map(json);
    expect(lines[0]).toEqual({ event: 'token', data: { delta: 'Here ' } });
    expect(lines.at(-1)).toMatchObject({ event: 'result', data: { ok: true, content: 'Here is a draft for: a haiku' } });
  });

  it('--async prints the pointer; --async --wait prints the result, with no progress line when stderr is not a terminal', async () => {
    const pointer = await oz(['tools', 'execute', 'echo', '--text', 'later', '--async'], env);
    expect(json(pointer.stdout)).toMatchObject({ execution_id: expect.stringMatching(/^exe_/), status: expect.stringMatching(/queued|running/) });
    const waited = await oz(['tools', 'execute', 'echo', '--text', 'later', '--async', '--wait'], env);
    expect(waited.code).toBe(0);
    expect(json(waited.stdout)).toMatchObject({ ok: true, content: 'later' });
    expect(waited.stderr).toBe('');
  });

  it('oz executions wait ID (and get ID --wait) waits for a run started elsewhere; --wait-timeout bounds it as it bounds --wait', async () => {
    const started = await fetch(`${mock.url}/v1/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'writer', user_request: 'a haiku', async: true }),
    });
    const { execution_id: id } = (await started.json()) as { execution_id: string };
    const waited = await oz(['executions', 'wait', id], env);
    expect(waited.code).toBe(0);
    expect(json(waited.stdout)).toMatchObject({ ok: true, execution_id: id, content: 'Here is a draft for: a haiku' });
    expect(waited.stderr).toBe('');
    const got = await oz(['executions', 'get', id, '--wait'], env);
    expect(json(got.stdout)).toMatchObject({ ok: true, execution_id: id, content: 'Here is a draft for: a haiku' });

    const slow = json((await oz(['tools', 'execute', 'slow', '--async'], env)).stdout).execution_id as string;
    const [late, lateStart] = await Promise.all([
      oz(['executions', 'wait', slow, '--wait-timeout', '300'], env),
      oz(['tools', 'execute', 'slow', '--wait', '--wait-timeout', '300'], env),
    ]);
    expect(late.code).not.toBe(0);
    expect(late.code).toBe(lateStart.code);
    expect(late.stderr).toMatch(/^oz: /);

    const usage = await oz(['executions', 'list', '--wait-timeout', '5'], env);
    expect([usage.code, usage.stderr]).toEqual([2, 'oz: --wait-timeout goes with --wait (or oz executions wait).\n']);
    expect((await oz(['executions', 'wait'], env)).code).toBe(2);
    expect((await oz(['executions', 'wait', 'exe_nope'], env)).code).toBe(1);
    // Later tests read the journal's first getExecution as the sign that a wait began.
    await mock.control('DELETE', '/journal');
  });

  it('--all walks every page as NDJSON', async () => {
    const tools = await oz(['tools', 'list', '--limit', '100'], env);
    const all = await oz(['tools', 'list', '--limit', '1', '--all'], env);
    const names = all.stdout
      .trim()
      .split('\n')
      .map((line) => json(line).name);
    expect(names).toEqual((json(tools.stdout).data as { name: string }[]).map((t) => t.name));
    expect(names.length).toBeGreaterThan(1);
  });

  it('takes a body from --data as JSON, YAML, @file and standard input; field flags win over it', async () => {
    const fromYaml = await oz(['tools', 'execute', 'echo', '--data', 'text: from yaml', '--format', 'text'], env);
    expect(fromYaml.stdout).toBe('from yaml');
    const fromStdin = await oz(['companies', 'items', 'create', 'acme', '--data', '-', '--title', 'flag wins'], env, '{"building": "hq", "title": "data"}');
    expect(json(fromStdin.stdout)).toMatchObject({ building: 'hq', title: 'flag wins' });
  });

  it('retries a write whose answer was lost, with the same idempotency key: one item, the replay answered', async () => {
    await mock.control('POST', '/faults', { operationId: 'createCompanyItem', type: 'lose' });
    const title = `lost-${Date.now()}`;
    const run = await oz(['companies', 'items', 'create', 'acme', '--building', 'hq', '--title', title, '--idempotency-key', `cli-${title}`], env);
    expect(run.code).toBe(0);
    expect(json(run.stdout)).toMatchObject({ title });
    const journal = (await mock.control('GET', '/journal?operationId=createCompanyItem&limit=5')) as {
      data: { headers: Record<string, string>; fault?: unknown }[];
    };
    const attempts = journal.data.filter((entry) => entry.headers['x-trace-id'] === `cli-${title}`);
    expect(attempts).toHaveLength(2);
    const items = await oz(['companies', 'items', 'list', 'acme', '--all'], env);
    expect(items.stdout.split('\n').filter((line) => line.includes(title))).toHaveLength(1);
  });
});

describe('oz: errors and exit codes', { timeout: 90_000 }, () => {
  it('1: an error answer of the API, its envelope on stderr in the chosen wire', async () => {
    const run = await oz(['tools', 'execute', 'nope', '--text', 'x'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(json(run.stderr)).toMatchObject({ error: { code: 'tool_not_found' } });
    const asText = await oz(['companies', 'items', 'create', 'nowhere', '--building', 'hq', '--title', 't', '--format', 'text'], env);
    expect(asText.code).toBe(1);
    expect(asText.stderr).toMatch(/^company_not_found: /);
  });

  it.each([
    [['tools', 'exec', 'echo'], /Unknown command: oz tools exec\. Did you mean oz tools execute\?/],
    [['tols', 'list'], /Did you mean oz tools\?/],
    [['tools', 'list', '--limt', '3'], /Unknown flag --limt\. Did you mean --limit\?/],
    [['companies', 'items', 'create', 'acme', '--building', 'hq', '--title', 't', '--priority', 'high'], /--priority expects an integer, not "high"/],
    [
      ['companies', 'items', 'create', 'acme', '--building', 'hq', '--title', 't', '--kind', 'chore'],
      /--kind expects one of feature, bugfix, docs, research, content, task/,
    ],
    [['tools', 'list', '--limit', '500'], /--limit expects an integer <= 100/],
    [['companies', 'items', 'create', 'acme', '--title', 't'], /Missing --building/],
    [['tools', 'execute', 'echo', '--data', '{"text": '], /--data \(inline\) is neither JSON nor YAML/],
    [['tools', 'execute', 'echo', '--data', 'just words'], /must be a JSON or YAML object/],
    [['tools', 'execute', 'echo', '--txt', 'hi'], /Unknown flag --txt\. Did you mean --text\?/],
    [['tools', 'list', '--format', 'xml'], /--format expects one of json, yaml, markdown, text/],
    [['tools', 'get'], /Missing TOOL/],
    [['tools', 'list', '--all', '--format', 'yaml'], /--all prints one JSON line per item/],
    [['meta', 'health', '--stream'], /does not stream/],
    // The flags that set client options, checked by the option table with the flag named.
    [['tools', 'list', '--timeout', '0'], /^oz: --timeout must be a number of milliseconds > 0, not 0\.$/m],
    [['tools', 'list', '--timeout', 'soon'], /^oz: --timeout expects a number, not "soon"\.$/m],
    [['tools', 'list', '--max-retries=-1'], /^oz: --max-retries must be a whole number >= 0, not -1\.$/m],
    [['tools', 'list', '--max-retries', '1.5'], /^oz: --max-retries must be a whole number >= 0, not 1\.5\.$/m],
    [['tools', 'list', '--base-url', 'localhost:4010'], /^oz: --base-url "localhost:4010" must be an http:\/\/ or https:\/\/ address\.$/m],
    [['tools', 'list', '--base-url', 'http://127.0.0.1:4010/v1'], /^oz: --base-url "http:\/\/127\.0\.0\.1:4010\/v1" ends in \/v1/m],
  ])('2: a usage error before anything is sent: oz %s', async (args, message) => {
    await mock.control('DELETE', '/journal');
    const run = await oz(args as string[], env);
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(2);
    const journal = (await mock.control('GET', '/journal?operationId=executeTool')) as { data: unknown[] };
    expect(journal.data).toHaveLength(0);
  });

  it('3: a connection error (nothing listens)', async () => {
    const run = await oz(['tools', 'list', '--base-url', 'http://127.0.0.1:9', '--max-retries', '0'], env);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^oz: .*connection/i);
  });

  it('3: a timeout', async () => {
    const run = await oz(['tools', 'execute', 'slow', '--timeout', '200', '--max-retries', '0'], env);
    expect(run.code).toBe(3);
  });

  it('130: Ctrl+C during a wait aborts the call, without a stack trace', async () => {
    const child = await spawnOz(['tools', 'execute', 'slow', '--wait'], env);
    const done = finished(child);
    for (let i = 0; i < 200; i++) {
      const journal = (await mock.control('GET', '/journal?operationId=getExecution&limit=1')) as { data: unknown[] };
      if (journal.data.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    const run = await done;
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('oz: interrupted.\n');
  });

  it('130: Ctrl+C during a stream', async () => {
    const slow = await startMock(['--token-ms', '5000']);
    try {
      const child = await spawnOz(['agents', 'execute', '--agent', 'writer', '--user-request', 'slowly', '--stream'], {
        ...env,
        OZ_BASE_URL: slow.url,
        OZ_API_KEY: slow.apiKey,
      });
      const done = finished(child);
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      child.kill('SIGINT');
      const run = await done;
      expect(run.code).toBe(130);
      expect(run.stdout).toMatch(/^Here /);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await slow.stop();
    }
  });
});

describe('oz: help, version, completion', { timeout: 90_000 }, () => {
  it('--version names the SDK and API versions', async () => {
    expect((await oz(['--version'], env)).stdout).toBe('oz-sdk 1.0.0 (API 2.4.0)\n');
  });

  it("a command's --help comes from openapi.json; a tool's from its card", async () => {
    const help = await oz(['companies', 'items', 'create', '--help'], env);
    expect(help.stdout).toContain("Create an item at a building's intake.");
    expect(help.stdout).toMatch(/--building string\s+\(required\) Slug of the building the item enters\./);
    expect(help.stdout).toMatch(/--kind feature\|bugfix\|docs\|research\|content\|task/);
    const tool = await oz(['tools', 'execute', 'echo', '--help'], env);
    expect(tool.stdout).toMatch(/--text string\s+\(required\) The text to answer back\./);
  });

  it('oz mock runs oz-mock with its flags, and stops it on Ctrl+C', async () => {
    const child = await spawnOz(['mock', '--port', '0', '--json'], {});
    const done = finished(child);
    const line = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    const facts = JSON.parse(line) as { url: string };
    expect((await fetch(`${facts.url}/health`)).status).toBe(200);
    child.kill('SIGINT');
    expect((await done).code).toBe(0);
  });

  it.each(['bash', 'zsh', 'fish'])('completion %s lists the commands', async (shell) => {
    const run = await oz(['completion', shell], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('execute-stream');
    expect(run.stdout).toContain('sign-in');
  });
});
