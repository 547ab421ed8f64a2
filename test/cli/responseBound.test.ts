/**
 * `oz` reads answers through the client, so the client's bound on one answer (`maxResponseBytes`, 64 MiB by
 * default) holds for the command line too: runCli in process against a scripted server on loopback.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/runCli.js';
import { KEY } from '../core/support/clients.js';
import { ScriptedServer } from '../core/support/scriptedServer.js';

const server = ScriptedServer.forSuite();
// The client reads its key from the process's environment (as `oz` does).
const saved = process.env.OZ_API_KEY;
beforeEach(() => void (process.env.OZ_API_KEY = KEY));
afterEach(() => (saved === undefined ? delete process.env.OZ_API_KEY : (process.env.OZ_API_KEY = saved)));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    env: { OZ_BASE_URL: server.url, OZ_API_KEY: KEY, OZ_CONFIG_DIR: '/nonexistent-oz-config' },
    readStdin: async () => '',
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

describe('oz and an answer past 64 MiB', () => {
  it('exits 1 with the OzResponseTooLargeError, after one request, printing nothing of the answer', async () => {
    const description = 'd'.repeat(64 * 1024 * 1024);
    server.answer({ headers: { 'content-type': 'application/json' }, body: `{"name":"echo","description":"${description}"}` });
    const { code, stdout, stderr } = await run(['tools', 'get', 'echo', '--max-retries', '2']);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^oz: The answer's body passed maxResponseBytes \(67108864 bytes, counted after decompression\)/);
    expect(code).toBe(1);
    expect(server.requests).toHaveLength(1);
  }, 30_000);
});
