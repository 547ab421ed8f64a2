/**
 * Record once, replay later, over real loopback sockets: an oz-mock plays the service, `oz-mock record` sits in
 * front of it, a dozen SDK calls go through the recorder, and a third oz-mock started with `--stubs` from the
 * recording answers the same calls with the recorded bodies. No file the recorder wrote holds the key.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Oz, ToolNotFoundError } from '../../../src/index.js';
import { spawnOzMock, startOzMock, waitForOutput, type SpawnedOzMock } from '../control/spawnOzMock.js';

const KEY = 'ozk_RecordReplayKey0123456789abcdefgh'.slice(0, 36);

/** The calls of the test, each answering what a replay must answer again (ids included). */
async function calls(oz: Oz) {
  const item = await oz.companies.items.create('acme', { building: 'hq', title: 'Recorded item' });
  const json = await oz.tools.execute('echo', { text: 'hello' });
  const yaml = await oz.tools.execute('echo', { text: 'hello' }, { format: 'yaml' });
  const markdown = await oz.tools.execute('echo', { text: 'hello' }, { format: 'markdown' });
  const card = await oz.tools.get('echo');
  const missing = await oz.tools.get('no-such-tool').then(
    () => null,
    (err: unknown) => err,
  );
  const events: string[] = [];
  const agentEvents: unknown[] = [];
  const stream = await oz.agents.execute({ agent: 'writer', user_request: 'a haiku', stream: true });
  for await (const event of stream) {
    events.push(event.event);
    agentEvents.push(event);
  }
  const workflowEvents: unknown[] = [];
  for await (const event of await oz.workflows.executeStoredStream('draft-and-review', { input: 'a note' })) workflowEvents.push(event);
  const chatChunks: unknown[] = [];
  for await (const chunk of await oz.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'Say hello.' }], stream: true }))
    chatChunks.push(chunk);
  const pointer = await oz.agents.execute({ agent: 'writer', user_request: 'a report', async: true });
  const done = await oz.executions.wait(pointer.execution_id, { timeout: 20_000 });
  const gotItem = await oz.companies.items.get('acme', item.id);
  const itemText = await oz.companies.items.get('acme', item.id, { format: 'text' });
  return { item, json, yaml, markdown, itemText, card, missing, events, agentEvents, workflowEvents, chatChunks, pointer, done, gotItem };
}

describe('oz-mock record, then oz-mock --stubs', () => {
  let service: SpawnedOzMock;
  let recorder: SpawnedOzMock;
  let replay: SpawnedOzMock | undefined;
  let serviceUrl: string;
  const out = mkdtempSync(join(tmpdir(), 'oz-recording-'));

  beforeAll(async () => {
    const started = await startOzMock(['--api-key', KEY]);
    service = started.mock;
    serviceUrl = started.line.url;
    recorder = spawnOzMock(['record', '--target', serviceUrl, '--out', out, '--port', '0', '--json']);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([service?.stop(), recorder?.stop(), replay?.stop()]);
  });

  it('forwards a dozen SDK calls, writes a HAR and stubs with no key in them, and a replay answers the recorded bodies', async () => {
    const [line] = await waitForOutput(recorder, /^\{.*\}$/m);
    const proxy = JSON.parse(line) as { url: string; har: string; stubs: string };
    const recorded = await calls(new Oz({ baseURL: proxy.url, apiKey: KEY, maxRetries: 0 }));
    expect(recorded.json.content).toBe('hello');
    expect(recorded.yaml.content).toBe('hello');
    expect(recorded.missing).toBeInstanceOf(ToolNotFoundError);
    expect(recorded.events.at(-1)).toBe('result');
    expect(recorded.events).toContain('token');
    expect(recorded.done.content).toBe('Here is a draft for: a report');

    // The HAR is a whole document after each exchange, before the recorder stops (the last one lands as its answer ends).
    type HarFile = { log: { version: string; entries: Array<{ _operationId: string; request: { headers: Array<{ name: string; value: string }> } }> } };
    const readHar = () => JSON.parse(readFileSync(proxy.har, 'utf8')) as HarFile;
    await expect.poll(() => readHar().log.entries.at(-1)?._operationId).toBe('getCompanyItem');
    const during = readHar();
    expect(during.log.version).toBe('1.2');
    expect(during.log.entries.map((e) => e._operationId)).toEqual(
      expect.arrayContaining(['createCompanyItem', 'executeTool', 'getTool', 'executeAgent', 'getExecution', 'getCompanyItem']),
    );
    const auth = during.log.entries[0]!.request.headers.find((h) => h.name.toLowerCase() === 'authorization');
    expect(auth?.value).toBe('<redacted>');

    expect(await recorder.stop()).toEqual({ code: 0, signal: null });
    expect(recorder.output()).not.toMatch(/gives no stub: a streamed answer/);
    const files = readdirSync(out);
    expect(files.sort()).toEqual(['recording.har', 'stubs.json']);
    for (const file of files) expect(readFileSync(join(out, file), 'utf8')).not.toContain(KEY);
    expect(readFileSync(join(out, 'recording.har'), 'utf8')).not.toContain(KEY.slice(4));

    const started = await startOzMock(['--stubs', join(out, 'stubs.json')]);
    replay = started.mock;
    const replayed = await calls(new Oz({ baseURL: started.line.url, apiKey: started.line.apiKey!, maxRetries: 0 }));
    // Ids made by the service come back: the replay answered the recorded bodies, not its own.
    expect(replayed.item.id).toBe(recorded.item.id);
    expect(replayed.gotItem).toEqual(recorded.gotItem);
    expect(replayed.json.execution_id).toBe(recorded.json.execution_id);
    expect(replayed.yaml.execution_id).toBe(recorded.yaml.execution_id);
    expect(replayed.card).toEqual(recorded.card);
    expect(replayed.missing).toBeInstanceOf(ToolNotFoundError);
    expect((replayed.missing as Error).message).toBe((recorded.missing as Error).message);
    expect(replayed.pointer).toEqual(recorded.pointer);
    // Markdown and text answers replay as they came: the same text, read by the SDK on that wire.
    expect(recorded.markdown).toContain('hello');
    expect(replayed.markdown).toBe(recorded.markdown);
    expect(recorded.itemText).toContain('Recorded item');
    expect(replayed.itemText).toBe(recorded.itemText);
    // Streams replay as recorded: the same events (names, data, order), read by the SDK.
    expect(recorded.workflowEvents.length).toBeGreaterThan(2);
    expect(recorded.chatChunks.length).toBeGreaterThan(2);
    expect(replayed.agentEvents).toEqual(recorded.agentEvents);
    expect(replayed.workflowEvents).toEqual(recorded.workflowEvents);
    expect(replayed.chatChunks).toEqual(recorded.chatChunks);
    // request_id is each answer's own x-request-id.
    expect({ ...replayed.done, request_id: null }).toEqual({ ...recorded.done, request_id: null });
  }, 120_000);
});
