/**
 * `oz` prints what came (contract, "Trust at the edges, round 3"): piped, an answer's bytes exactly as the service
 * sent them; on a terminal, no YAML alias expanded (a document that would grow past 1 MiB is printed as it came).
 * The built `oz`, piped and in a pseudo-terminal, against a scripted server on loopback.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { KEY } from '../core/support/clients.js';
import { ScriptedServer } from '../core/support/scriptedServer.js';
import { configDir, oz } from './support/ozProcess.js';
import { ozInTerminal } from './support/ozTerminal.js';

const server = ScriptedServer.forSuite();
const config = configDir();
afterAll(() => config.remove());
const env = () => ({ OZ_BASE_URL: server.url, OZ_API_KEY: KEY, OZ_CONFIG_DIR: config.path });

// Digits a double cannot hold and a number past its range: JSON.parse makes them 9007199254740992 and Infinity.
const BIG_JSON = '{"n":9007199254740993,"big":1e400,"s":"caf\u00e9"}';
const yaml = (body: string) => ({ headers: { 'content-type': 'text/yaml' }, body });
const json = (body: string) => ({ headers: { 'content-type': 'application/json' }, body });

// 9 levels of 10 aliases: 570 bytes that stand for 10^9 strings when written out in full.
const ALIAS_BOMB = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
  .concat(['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name, i) => `${name}: &${name} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(',')}]`))
  .join('\n')
  .concat('\n');

describe("oz piped or redirected prints the answer's bytes exactly", { timeout: 60_000 }, () => {
  it.each([[[]], [['--format', 'json']]])('a JSON answer (flags %j): byte-identical, big numbers and all', async (flags) => {
    server.answer(json(BIG_JSON));
    const run = await oz(['tools', 'get', 'echo', ...flags], env());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(BIG_JSON);
  });

  it('a YAML answer keeps its comments, anchors and spelling', async () => {
    const document = '# as the service wrote it\nname: echo\nlimits: &l {max: 1e400, id: 9007199254740993}\nagain: *l\n';
    server.answer(yaml(document));
    const run = await oz(['tools', 'get', 'echo', '--format', 'yaml'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(document);
    expect(server.requests[0]!.headers.accept).toBe('text/yaml');
  });

  it('a page of a list: the page as it came', async () => {
    const page = '{"data":[{"name":"echo","size":12345678901234567890}],"next_cursor":null}';
    server.answer(json(page));
    const run = await oz(['tools', 'list'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(page);
  });

  it.each(['yaml', 'json'])('an alias bomb asked --format %s: printed as it came, at once', async (format) => {
    server.fallback = () => yaml(ALIAS_BOMB);
    const run = await oz(['tools', 'get', 'echo', '--format', format], env());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(ALIAS_BOMB);
  });

  it.each(['yaml', 'json'])('an error answer holding an alias bomb (--format %s): its code and message in one line, at once', async (format) => {
    const envelope = `${ALIAS_BOMB}error:\n  code: tool_not_found\n  message: no such tool\n  details: *i\n`;
    server.fallback = () => ({ status: 404, headers: { 'content-type': 'text/yaml', 'x-error-code': 'tool_not_found' }, body: envelope });
    const run = await oz(['tools', 'get', 'echo', '--format', format], env());
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('tool_not_found: no such tool\n');
  });

  it('an answer converted to the asked wire (json to yaml) is still converted', async () => {
    server.answer(json('{"data":[],"next_cursor":null}'));
    const run = await oz(['executions', 'list', '--format', 'yaml'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('data: []\nnext_cursor: null\n');
  });
});

describe('oz on a terminal expands no YAML alias past the bound', { timeout: 60_000 }, () => {
  it.each(['yaml', 'json'])('an alias bomb asked --format %s: the document as it came', async (format) => {
    server.fallback = () => yaml(ALIAS_BOMB);
    const { code, screen } = await ozInTerminal(['tools', 'get', 'echo', '--format', format], env());
    expect(code).toBe(0);
    expect(screen.replace(/\r\n/g, '\n')).toContain(ALIAS_BOMB);
  });

  it('a small document with aliases asked --format json: written out as JSON, pretty', async () => {
    server.answer(yaml('a: &a [1, 2]\nb: *a\n'));
    const { code, screen } = await ozInTerminal(['tools', 'get', 'echo', '--format', 'json'], env());
    expect(code).toBe(0);
    expect(JSON.parse(screen.replace(/\r\n/g, '\n'))).toEqual({ a: [1, 2], b: [1, 2] });
    expect(screen).toContain('{\r\n  "a": [\r\n');
  });

  it('a YAML answer asked --format yaml is shown as it came', async () => {
    const document = "# the service's own words\nname: echo\n";
    server.answer(yaml(document));
    const { code, screen } = await ozInTerminal(['tools', 'get', 'echo', '--format', 'yaml'], env());
    expect(code).toBe(0);
    expect(screen.replace(/\r\n/g, '\n')).toBe(document);
  });
});
