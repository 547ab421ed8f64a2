/**
 * Text from the service printed by `oz` to a terminal has its control characters escaped (contract, 2026-11-26):
 * the built `oz` in a pseudo-terminal (@lydell/node-pty) against the built oz-mock, whose tool answers escape
 * sequences; piped, the same command prints the wire's bytes.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressLine } from '../../src/cli/progressLine.js';
import { escapedControls, ownLinesStream, terminalStream } from '../../src/cli/terminalText.js';
import { configDir, oz, startMock, type MockServer } from './support/ozProcess.js';
import { ozInTerminal } from './support/ozTerminal.js';

// A window title, a screen clear, a single-byte CSI (C1), a carriage return, DEL and BEL.
const HOSTILE = 'a\u001b]0;pwned\u0007b\u001b[2Jc\u009b31md\re\u007ff';
const ESCAPED = 'a\\u001b]0;pwned\\u0007b\\u001b[2Jc\\u009b31md\\u000de\\u007ff';

let mock: MockServer;
let config: ReturnType<typeof configDir>;

beforeAll(async () => {
  mock = await startMock();
  config = configDir();
  await mock.control('POST', '/fixtures', {
    tools: [{ name: 'hostile', description: 'Answers escape sequences.', input_schema: { type: 'object', properties: {} }, answer: HOSTILE }],
  });
}, 60_000);

afterAll(async () => {
  await mock?.stop();
  config?.remove();
});

/** Runs the built `oz` in a pseudo-terminal against the mock. */
function inTerminal(args: string[], extra: Record<string, string> = {}): Promise<{ code: number; screen: string }> {
  return ozInTerminal(args, { OZ_BASE_URL: mock.url, OZ_API_KEY: mock.apiKey, OZ_CONFIG_DIR: config.path, ...extra });
}

describe('escapedControls', () => {
  it('escapes C0 but tab and newline, DEL and C1; keeps every other character', () => {
    expect(escapedControls(HOSTILE)).toBe(ESCAPED);
    expect(escapedControls('\u0000\u0008\u000b\u000c\u001f\u0080\u0085\u009f')).toBe('\\u0000\\u0008\\u000b\\u000c\\u001f\\u0080\\u0085\\u009f');
    const plain = 'tab\there\nnew line, ü, \u00a0, 😀, \\u001b as typed';
    expect(escapedControls(plain)).toBe(plain);
  });

  it('ownLinesStream (stderr) escapes on a terminal and piped; its own control sequences pass', () => {
    for (const isTTY of [true, false]) {
      const written: string[] = [];
      const stream = ownLinesStream({ isTTY, write: (text: string | Uint8Array) => written.push(String(text)) });
      stream.write(HOSTILE);
      stream.write(new TextEncoder().encode(HOSTILE));
      stream.writeControl('\r\u001b[2K');
      expect(written).toEqual([ESCAPED, ESCAPED, '\r\u001b[2K']);
    }
  });

  it('terminalStream escapes on a terminal and passes bytes through when piped', () => {
    const written: string[] = [];
    terminalStream({ isTTY: true, write: (text: string) => written.push(text) }).write(HOSTILE);
    terminalStream({ isTTY: false, write: (text: string) => written.push(text) }).write(HOSTILE);
    expect(written).toEqual([ESCAPED, HOSTILE]);
  });

  it("the --wait progress line escapes the record's status and id, and keeps its own line clear", () => {
    const written: string[] = [];
    const line = progressLine(terminalStream({ isTTY: true, write: (text: string) => written.push(text) }), () => 0);
    line.update({ id: 'exe_1\u001b[2J', status: 'running\u009b31m' });
    expect(written.join('')).toBe('\r\u001b[2Kexe_1\\u001b[2J running\\u009b31m · 1 poll · 0.0s');
  });
});

describe('oz in a terminal, and piped', { timeout: 90_000 }, () => {
  it('a result printed to a terminal shows the escape sequences as \\uXXXX, none reaches the terminal', async () => {
    const { code, screen } = await inTerminal(['tools', 'execute', 'hostile', '--format', 'text']);
    expect(code).toBe(0);
    expect(screen).toContain(ESCAPED);
    expect(screen).not.toContain('\u001b]0;');
    expect(screen).not.toContain('\u009b');
  });

  it("piped, the same command prints the wire's bytes, exactly (no newline added)", async () => {
    const run = await oz(['tools', 'execute', 'hostile', '--format', 'text'], { OZ_BASE_URL: mock.url, OZ_API_KEY: mock.apiKey, OZ_CONFIG_DIR: config.path });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(HOSTILE);
  });

  it('JSON to a terminal stays valid JSON: C1 and DEL become JSON escapes too', async () => {
    const { screen } = await inTerminal(['tools', 'execute', 'hostile', '--format', 'json']);
    expect(screen).not.toContain('\u009b');
    expect(screen).not.toContain('\u007f');
    const body = screen.slice(screen.indexOf('{'), screen.lastIndexOf('}') + 1).replace(/\r\n/g, '\n');
    expect((JSON.parse(body) as { content: string }).content).toBe(HOSTILE);
  });

  it('the result of --async --wait printed to a terminal is escaped', async () => {
    const { code, screen } = await inTerminal(['tools', 'execute', 'hostile', '--async', '--wait', '--format', 'text']);
    expect(code).toBe(0);
    expect(screen).toContain(ESCAPED);
    expect(screen).not.toContain('\u001b]0;');
  });

  it('oz profiles list escapes the tier, key name and expiry it keeps from the service', async () => {
    const file = join(config.path, 'profiles.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        profiles: { default: { api_key: mock.apiKey, key_name: 'k\u001b]0;x\u0007', tier: 'pro\u001b[31m', expires_at: '2027\u009b2J' } },
      }),
      { mode: 0o600 },
    );
    chmodSync(file, 0o600);
    const { code, screen } = await inTerminal(['profiles', 'list']);
    expect(code).toBe(0);
    expect(screen).toContain('key k\\u001b]0;x\\u0007, tier pro\\u001b[31m');
    expect(screen).toContain('expires 2027\\u009b2J');
    expect(screen).not.toContain('\u001b]0;');
  });

  it("oz profiles list piped escapes them too: its lines are oz's own, never the wire's", async () => {
    const file = join(config.path, 'profiles.json');
    writeFileSync(
      file,
      JSON.stringify({ version: 1, profiles: { default: { api_key: mock.apiKey, key_name: 'k\u001b]0;x\u0007', tier: 'pro\u009b31m', expires_at: null } } }),
      { mode: 0o600 },
    );
    chmodSync(file, 0o600);
    const env = { OZ_BASE_URL: mock.url, OZ_CONFIG_DIR: config.path };
    const lines = await oz(['profiles', 'list'], env);
    expect(lines.code).toBe(0);
    expect(lines.stdout).toContain('key k\\u001b]0;x\\u0007, tier pro\\u009b31m');
    const asJson = await oz(['profiles', 'list', '--format', 'json'], env);
    expect(asJson.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect((JSON.parse(asJson.stdout) as { tier: string }[])[0]!.tier).toBe('pro\u009b31m');
  });

  it('an error message from the service piped to stderr has its control characters escaped', async () => {
    const run = await oz(['tools', 'get', 'no\u001b[2Jsuch\u009b31m', '--format', 'text'], {
      OZ_BASE_URL: mock.url,
      OZ_API_KEY: mock.apiKey,
      OZ_CONFIG_DIR: config.path,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no\\u001b[2Jsuch\\u009b31m');
    expect(run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('an error message from the service is escaped on a terminal stderr', async () => {
    const { code, screen } = await inTerminal(['tools', 'get', 'no\u001b[2Jsuch', '--format', 'text']);
    expect(code).toBe(1);
    expect(screen).toContain('no\\u001b[2Jsuch');
    expect(screen).not.toContain('\u001b[2J');
  });
});
