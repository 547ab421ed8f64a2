/**
 * Resource hygiene the stream tests do not cover yet: a caller's signal shared by calls that retry, lose their
 * answer, fail, time out or have their stream cut keeps no listener; no timer keeps the process alive after
 * calls; no socket stays open after streams that are cut, aborted or broken out of.
 */
import { spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Oz, OzError } from '../../src/index.js';
import type { OzServer } from '../../src/testing/index.js';
import { createTestServer } from '../support/ozServer.js';

let server: OzServer;
afterEach(() => server?.close());

const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('resource hygiene', () => {
  it('a shared signal keeps no listener after calls that succeed, retry, lose their answer, fail, time out, or have their stream cut', async () => {
    server = createTestServer();
    const listener = await server.listen({ port: 0, mcpPort: 0, host: '127.0.0.1' });
    try {
      const client = new Oz({ baseURL: listener.url, apiKey: server.apiKey, logLevel: 'off', maxRetries: 2 });
      const { signal } = new AbortController();
      const options = { signal };
      const outcomes: string[] = [];
      const note = (p: Promise<unknown>) =>
        p.then(
          () => outcomes.push('ok'),
          (e: unknown) => outcomes.push(e instanceof OzError ? e.name : `untyped ${String(e)}`),
        );

      await note(client.tools.execute('echo', { text: 'a' }, options));
      server.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 0 });
      await note(client.tools.execute('echo', { text: 'b' }, options));
      server.faults.add({ operationId: 'executeTool', type: 'lose' });
      await note(client.tools.execute('echo', { text: 'c' }, options));
      await note(client.tools.get('nope', options));
      server.faults.add({ operationId: 'executeTool', type: 'delay', ms: 300 });
      await note(client.tools.execute('echo', { text: 'd' }, { ...options, timeout: 20, maxRetries: 0 }));
      server.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 1 });
      const cut = await client.agents.execute({ agent: 'writer', user_request: 'one two three', stream: true }, options);
      await note(cut.finalResult());
      await note(client.executions.wait(cut.executionId!, { interval: 10, signal }));
      const whole = await client.agents.execute({ agent: 'writer', user_request: 'one two', stream: true }, options);
      await note(whole.finalResult());

      expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ToolNotFoundError', 'OzTimeoutError', 'OzStreamInterruptedError', 'ok', 'ok']);
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    } finally {
      await listener.close();
    }
  });

  it('no socket stays open after streams that are cut, aborted, broken out of or closed unread', async () => {
    server = createTestServer({ timing: { tokenMs: 5 } });
    const listener = await server.listen({ port: 0, mcpPort: 0, host: '127.0.0.1' });
    try {
      const client = new Oz({ baseURL: listener.url, apiKey: server.apiKey, logLevel: 'off', maxRetries: 0 });
      const LONG = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
      await client.tools.execute('echo', { text: 'warm' }); // one pooled keep-alive connection
      await settle();
      const baseline = sockets();
      for (let i = 0; i < 8; i++) {
        server.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 2 });
        const cut = await client.agents.execute({ agent: 'writer', user_request: LONG, stream: true });
        await cut.finalResult().catch(() => undefined);
        const broken = await client.agents.execute({ agent: 'writer', user_request: LONG, stream: true });
        for await (const _ of broken) break;
        const controller = new AbortController();
        const aborted = await client.agents.execute({ agent: 'writer', user_request: LONG, stream: true }, { signal: controller.signal });
        controller.abort();
        await aborted.finalResult().catch(() => undefined);
        const unread = await client.agents.execute({ agent: 'writer', user_request: LONG, stream: true });
        await unread.close();
      }
      await client.tools.execute('echo', { text: 'after' });
      // Sockets the client destroyed close on the server's side on a later turn: give it a few.
      for (let i = 0; i < 25 && sockets() > baseline; i++) await settle();
      // 32 abandoned streams: a leak would leave dozens; a pooled connection or two may come and go.
      expect(sockets()).toBeLessThanOrEqual(baseline + 2);
      await server.idle();
    } finally {
      await listener.close();
    }
  });

  it('no timer or socket keeps the process alive after calls of every kind (a child process exits on its own)', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/callsThenExit.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // A bound far above the calls' own time (about a second): only a handle left behind reaches it.
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    clearTimeout(killer);
    expect({ code, signal, out, err }).toEqual({ code: 0, signal: null, out: 'calls done\n', err: '' });
  }, 30_000);
});
