/**
 * `oz ... --wait` against a service whose start answer is not a pointer: runCli in process (its streams faked)
 * against a scripted server on loopback. A finished run (200) is waited on by its id; anything else is the
 * OzError naming what came (exit 1), never "unexpected error".
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/runCli.js';
import { envelope, KEY } from '../core/support/clients.js';
import { executionRecord } from '../core/support/executionRecord.js';
import { ScriptedServer, type ScriptedAnswer } from '../core/support/scriptedServer.js';

const server = ScriptedServer.forSuite();
// The client reads its key from the process's environment (as `oz` does).
const saved = process.env.OZ_API_KEY;
beforeEach(() => void (process.env.OZ_API_KEY = KEY));
afterEach(() => (saved === undefined ? delete process.env.OZ_API_KEY : (process.env.OZ_API_KEY = saved)));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    // An answer is written as the bytes that came.
    stdout: { write: (text: string | Uint8Array) => (stdout += typeof text === 'string' ? text : Buffer.from(text).toString('utf8')), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    env: { OZ_BASE_URL: server.url, OZ_API_KEY: KEY, OZ_CONFIG_DIR: '/nonexistent-oz-config' },
    readStdin: async () => '',
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

const json = (status: number, text: string): ScriptedAnswer => ({ status, headers: { 'content-type': 'application/json' }, body: text });

describe('oz --wait on a start answer that is not a pointer', () => {
  it.each([
    ['null', 'null'],
    ['[]', 'an array (0 items)'],
    ['{"ok":true}', 'an object with keys ok'],
  ])('a 202 of %s: exit 1, the OzError naming it', async (text, named) => {
    server.fallback = (request) =>
      request.method === 'GET'
        ? { body: { name: 'echo', input_schema: { type: 'object', properties: { text: { type: 'string' } } }, required: ['text'] } }
        : json(202, text);
    const { code, stderr, stdout } = await run(['tools', 'execute', 'echo', '--text', 'x', '--wait']);
    expect(stdout).toBe('');
    expect(stderr).toBe(`oz: The answer of oz tools execute --wait is not a run (\`execution_id\`): it is ${named}.\n`);
    expect(code).toBe(1);
  });

  it('a finished run (200, the result envelope) is waited on by its execution id', async () => {
    server.answer({ body: envelope('done', 'exe_sync') }, { body: executionRecord('exe_sync', 'succeeded') });
    const { code, stdout } = await run(['tools', 'execute', 'echo', '--text', 'x', '--wait', '--format', 'text']);
    expect(code).toBe(0);
    expect(stdout).toBe('first run result\n');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/tools/echo/execute', 'GET /v1/executions/exe_sync']);
  });
});

describe('oz tools execute reads the tool card the service answers', () => {
  it.each([
    ['null', 'null'],
    ['[]', 'an array (0 items)'],
  ])('a card of %s: exit 1, the OzError naming it, nothing executed', async (text, named) => {
    // A card is read once per process (once per `oz` run): each case asks for a tool of its own.
    const tool = `card-${named.length}`;
    server.fallback = () => json(200, text);
    const { code, stderr } = await run(['tools', 'execute', tool, '--text', 'x']);
    expect(stderr).toBe(`oz: The answer of the tool card of "${tool}" is not a tool card: it is ${named}.\n`);
    expect(code).toBe(1);
    expect(server.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('a card whose schema holds odd entries (a null property, required not a list) still reads its fields', async () => {
    server.answer(
      { body: { name: 'echo', input_schema: { type: 'object', properties: { text: { type: 'string' }, odd: null }, required: 'text' }, required: 7 } },
      { body: envelope('ok') },
    );
    const { code, stdout } = await run(['tools', 'execute', 'odd-card', '--text', 'x']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, content: 'ok' });
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({ params: { text: 'x' } });
  });
});
