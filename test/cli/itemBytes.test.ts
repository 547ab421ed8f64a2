/**
 * `oz --all` and `oz --stream --format json` print each item and each event's data as the service sent it: key
 * order, spacing, number forms (`1.0`, `1e2`, `-0.0`) and unicode escapes kept, one NDJSON line each. The built
 * `oz` against a scripted server on loopback.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { KEY } from '../core/support/clients.js';
import { ScriptedServer } from '../core/support/scriptedServer.js';
import { configDir, oz } from './support/ozProcess.js';

const server = ScriptedServer.forSuite();
const config = configDir();
afterAll(() => config.remove());
const env = () => ({ OZ_BASE_URL: server.url, OZ_API_KEY: KEY, OZ_CONFIG_DIR: config.path });
const json = (body: string) => ({ headers: { 'content-type': 'application/json' }, body });
const events = (body: string) => ({ headers: { 'content-type': 'text/event-stream; charset=utf-8', 'x-execution-id': 'exe_1' }, body });

// Two pages: odd spacing, number forms JSON.stringify would change, escapes, keys out of order, a pretty page.
const ITEM_1 = '{ "name" : "echo",  "weight": 1.0 }';
const ITEM_2 = '{"size":1e2,"name":"caf\\u00e9","big":9007199254740993}';
const PAGE_1 = `{"next_cursor":"c2", "data" : [ ${ITEM_1} ,${ITEM_2}]}`;
const PAGE_2 = '{\n  "data": [\n    {\n      "name": "last",\n      "z": -0.0,\n      "s": "a\\"]}b"\n    }\n  ],\n  "next_cursor": null\n}\n';

describe('oz --all prints each item as its bytes in the page', { timeout: 60_000 }, () => {
  it('every item of every page, as sent; a pretty item on one line, its line breaks dropped', async () => {
    server.answer(json(PAGE_1), json(PAGE_2));
    const run = await oz(['tools', 'list', '--all'], env());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${ITEM_1}\n${ITEM_2}\n{      "name": "last",      "z": -0.0,      "s": "a\\"]}b"    }\n`);
    expect(server.requests.map((r) => new URL(r.url, server.url).searchParams.get('cursor'))).toEqual([null, 'c2']);
  });

  it('two data keys: the items of the last, as the client reads the page', async () => {
    // JSON.parse takes the last "data"; so does the slicer.
    server.answer(json('{"data":[{"a":1.0},{"b":2}],"data":[{"c":1e2}],"next_cursor":null}'));
    const run = await oz(['tools', 'list', '--all'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('{"c":1e2}\n');
  });
});

describe("oz --stream --format json prints each event's data as sent", { timeout: 60_000 }, () => {
  it('an execute stream: {"event","data"} lines, the data as it came; pings and unknown kinds skipped as before', async () => {
    const token = '{"delta":"Hi ",  "n":1.0}';
    const step = '{"status":"done","task_id":"t_1","w":1e2}';
    const result = '{"ok":true,"content":"Hi caf\\u00e9","execution_id":"exe_1"}';
    server.answer(
      events(`event: token\ndata: ${token}\n\n: ping\n\nevent: progress\ndata: {"x":1}\n\nevent: step\ndata: ${step}\n\nevent: result\ndata: ${result}\n\n`),
    );
    const run = await oz(['agents', 'execute', '--agent', 'writer', '--user-request', 'hi', '--stream', '--format', 'json'], env());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`{"event":"token","data":${token}}\n{"event":"step","data":${step}}\n{"event":"result","data":${result}}\n`);
  });

  it('a data split over two data lines is one line', async () => {
    server.answer(events('event: result\ndata: {"ok":true,\ndata:  "content":"x",  "execution_id":"exe_1"}\n\n'));
    const run = await oz(['agents', 'execute', '--agent', 'writer', '--user-request', 'hi', '--stream', '--format', 'json'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('{"event":"result","data":{"ok":true, "content":"x",  "execution_id":"exe_1"}}\n');
  });

  it('a chat stream: each chunk as it came, [DONE] not printed', async () => {
    const chunk = (content: string) =>
      `{"id":"chatcmpl_1","object":"chat.completion.chunk","created":1.0e9,"model":"oz-chat","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}]}`;
    server.answer(events(`data: ${chunk('caf\\u00e9')}\n\ndata: ${chunk(' ok')}\n\ndata: [DONE]\n\n`));
    const run = await oz(
      ['chat', 'completions', 'create', '--data', '{"model":"oz-chat","messages":[{"role":"user","content":"hi"}]}', '--stream', '--format', 'json'],
      env(),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${chunk('caf\\u00e9')}\n${chunk(' ok')}\n`);
  });
});
