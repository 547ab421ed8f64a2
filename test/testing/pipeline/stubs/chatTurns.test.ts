/**
 * Chat scripts turn by turn (`match.turn`, `match.lastToolResult`) and paced streamed replies (`reply.pace` on the
 * server's clock, its jitter seeded): in process, over HTTP through the control plane, in a stubs file; every
 * refused value.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOzServer, type OzListener, type OzServer } from '../../../../src/testing/index.js';
import { readStubFile } from '../../../../src/testing/fixtures/stubFile.js';
import { seededRandom } from '../../../../src/testing/support/seededRandom.js';
import { listenedServer } from '../../support/listenedServer.js';

const TOKEN = 'ozadm_TurnTurnTurnTurnTurnTurnTurnTu00';
const suite = listenedServer({ adminToken: TOKEN });
let server: OzServer;
let listener: OzListener;
let openai: OpenAI;

beforeAll(() => {
  ({ server, listener } = suite);
  openai = new OpenAI({ apiKey: server.apiKey, baseURL: `${server.url}/v1`, fetch: server.fetch, maxRetries: 0 });
});

type Message = OpenAI.Chat.ChatCompletionMessageParam;
const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
/** The model's call `id` of a tool, then that tool's result: the server checks a result answers a call before it. */
const called = (id: string): Message[] => [
  { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: id, content: '{"ok":true}' },
];
const answer = async (messages: Message[]) => (await openai.chat.completions.create({ model: 'oz-chat', messages })).choices[0]!.message.content;

function addOverHttp(stub: object): Promise<Response> {
  return fetch(`${listener.url}/_oz/stubs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(stub),
  });
}

describe('match.turn: the assistant messages before the last message', () => {
  it('0 for the first request, 1 after one reply, 2 after two; a system message does not count', async () => {
    for (const turn of [0, 1, 2]) server.stubs.add({ operationId: 'createChatCompletion', match: { turn }, answer: { reply: { content: `turn ${turn}` } } });
    expect(await answer([{ role: 'system', content: 'Be brief.' }, user('hi')])).toBe('turn 0');
    expect(await answer([user('hi'), assistant('a'), user('again')])).toBe('turn 1');
    expect(await answer([user('hi'), assistant('a'), user('again'), ...called('call_1')])).toBe('turn 2');
    expect(await answer([user('hi'), assistant('a'), user('b'), assistant('c'), user('d'), assistant('e'), user('f')])).toBe('Hello from oz-chat. You said: f');
  });

  it('the last message itself is not counted, even when it is the assistant’s', async () => {
    server.stubs.add({ operationId: 'createChatCompletion', match: { turn: 0 }, answer: { reply: { content: 'first' } } });
    expect(await answer([user('hi'), assistant('prefilled')])).toBe('first');
  });

  it('over HTTP: a stub added through the control plane matches by turn, with lastUserMessage', async () => {
    const added = await addOverHttp({
      operationId: 'createChatCompletion',
      match: { turn: 1, lastUserMessage: { contains: 'Oslo' } },
      answer: { reply: { content: 'second turn in Oslo' } },
    });
    expect(added.status).toBe(201);
    expect(await answer([user('Oslo?'), assistant('a'), user('Oslo!')])).toBe('second turn in Oslo');
    expect(await answer([user('Oslo!')])).toBe('Hello from oz-chat. You said: Oslo!');
  });
});

describe('match.lastToolResult: the last message is a tool result', () => {
  it('{} matches any tool result as the last message; a user message after one does not', async () => {
    server.stubs.add({ operationId: 'createChatCompletion', match: { lastToolResult: {} }, answer: { reply: { content: 'read the tool' } } });
    expect(await answer([user('go'), ...called('call_9')])).toBe('read the tool');
    expect(await answer([user('go'), ...called('call_9'), user('and now?')])).toBe('Hello from oz-chat. You said: and now?');
  });

  it('{ toolCallId } matches only the result of that call', async () => {
    server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastToolResult: { toolCallId: 'call_a' } },
      answer: { reply: { content: 'result of a' } },
    });
    server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastToolResult: { toolCallId: 'call_b' } },
      answer: { reply: { content: 'result of b' } },
    });
    expect(await answer([user('go'), ...called('call_a')])).toBe('result of a');
    expect(await answer([user('go'), ...called('call_b')])).toBe('result of b');
    expect(await answer([user('go'), ...called('call_c')])).toBe('Hello from oz-chat. You said: go');
  });

  it('a miss is named in the near misses: the turn and the last tool result the request had', async () => {
    server.stubs.add({
      operationId: 'createChatCompletion',
      match: { turn: 3, lastToolResult: { toolCallId: 'call_a' } },
      answer: { reply: { content: 'x' } },
    });
    await answer([user('go'), ...called('call_b')]);
    const [miss] = server.unused().stubs;
    expect(miss!.nearMisses[0]!.differences).toEqual([
      { path: 'turn', expected: 3, actual: 1 },
      { path: 'lastToolResult', expected: { toolCallId: 'call_a' }, actual: { toolCallId: 'call_b' } },
    ]);
  });

  it('over HTTP, and in a stubs file', async () => {
    const added = await addOverHttp({
      operationId: 'createChatCompletion',
      match: { lastToolResult: { toolCallId: 'call_h' } },
      answer: { reply: { content: 'over HTTP' } },
    });
    expect(added.status).toBe(201);
    expect(await answer([user('go'), ...called('call_h')])).toBe('over HTTP');
    const [stub] = readStubFile(
      JSON.stringify([
        {
          operationId: 'createChatCompletion',
          match: { turn: 1, lastToolResult: {} },
          answer: { reply: { content: 'from a file', pace: { firstTokenMs: 5, tokensPerSecond: 50 } } },
        },
      ]),
      'stubs.json',
    );
    server.stubs.add(stub as never);
    expect(await answer([user('go'), ...called('call_x')])).toBe('from a file');
  });
});

/** A streamed completion on `paced`'s frozen clock, read as it comes: each content chunk's text in order. */
async function pacedStream(paced: OzServer, content: string): Promise<{ texts: string[]; done: () => boolean }> {
  const res = await paced.fetch(`${paced.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${paced.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'oz-chat', stream: true, messages: [user(content)] }),
  });
  const seen = { texts: [] as string[], ended: false };
  void (async () => {
    const decoder = new TextDecoder();
    let text = '';
    const reader = res.body!.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
      const events = text.split('\n\n');
      text = events.pop()!;
      for (const event of events) {
        const data = event.replace(/^data: /, '');
        if (data === '[DONE]') seen.ended = true;
        else seen.texts.push((JSON.parse(data) as { choices: [{ delta: { content?: string | null } }] }).choices[0].delta.content ?? '(end)');
      }
    }
  })();
  return { texts: seen.texts, done: () => seen.ended };
}

/** Lets the server's stream flush and the reader read (macrotasks, no clock time). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('reply.pace: a streamed reply on the server clock', () => {
  it('a frozen clock holds the first chunk firstTokenMs, then one token every 1000 / tokensPerSecond ms', async () => {
    const paced = createOzServer({ clock: { start: '2026-11-26T10:00:00Z', frozen: true } });
    try {
      paced.stubs.add({
        operationId: 'createChatCompletion',
        answer: { reply: { content: 'one two three', pace: { firstTokenMs: 500, tokensPerSecond: 10 } } },
      });
      const stream = await pacedStream(paced, 'go');
      await settle();
      expect(stream.texts).toEqual([]);
      await paced.clock.advance(499);
      await settle();
      expect(stream.texts).toEqual([]);
      await paced.clock.advance(1);
      await settle();
      expect(stream.texts).toEqual(['', 'one ']);
      await paced.clock.advance(99);
      await settle();
      expect(stream.texts).toEqual(['', 'one ']);
      await paced.clock.advance(1);
      await settle();
      expect(stream.texts).toEqual(['', 'one ', 'two ']);
      await paced.clock.advance(100);
      await settle();
      expect(stream.texts).toEqual(['', 'one ', 'two ', 'three', '(end)']);
      expect(stream.done()).toBe(true);
    } finally {
      await paced.close();
    }
  });

  it('jitter: each wait within ± jitter of the spacing, drawn from the seed (the same every time)', async () => {
    const paced = createOzServer({ clock: { start: '2026-11-26T10:00:00Z', frozen: true } });
    try {
      const pace = { firstTokenMs: 0, tokensPerSecond: 10, jitter: 0.5, seed: 7 };
      paced.stubs.add({ operationId: 'createChatCompletion', answer: { reply: { content: 'a b c d', pace } } });
      const random = seededRandom(7);
      const waits = [0, 1, 2].map(() => Math.round(100 * (1 + 0.5 * (2 * random() - 1))));
      expect(new Set(waits).size).toBeGreaterThan(1);
      for (const wait of waits) expect(Math.abs(wait - 100)).toBeLessThanOrEqual(50);
      const stream = await pacedStream(paced, 'go');
      await settle();
      expect(stream.texts).toEqual(['', 'a ']);
      for (const [i, token] of ['b ', 'c ', 'd'].entries()) {
        await paced.clock.advance(waits[i]! - 1);
        await settle();
        expect(stream.texts).not.toContain(token);
        await paced.clock.advance(1);
        await settle();
        expect(stream.texts).toContain(token);
      }
      expect(stream.texts).toEqual(['', 'a ', 'b ', 'c ', 'd', '(end)']);
    } finally {
      await paced.close();
    }
  });

  it('a completion that does not stream answers at once, whatever its pace', async () => {
    const paced = createOzServer({ clock: { start: '2026-11-26T10:00:00Z', frozen: true } });
    try {
      paced.stubs.add({ operationId: 'createChatCompletion', answer: { reply: { content: 'now', pace: { firstTokenMs: 60_000, tokensPerSecond: 1 } } } });
      const client = new OpenAI({ apiKey: paced.apiKey, baseURL: `${paced.url}/v1`, fetch: paced.fetch, maxRetries: 0 });
      expect((await client.chat.completions.create({ model: 'oz-chat', messages: [user('x')] })).choices[0]!.message.content).toBe('now');
    } finally {
      await paced.close();
    }
  });

  it('over HTTP: a paced reply is a stub of the control plane', async () => {
    const added = await addOverHttp({
      operationId: 'createChatCompletion',
      answer: { reply: { content: 'x', pace: { firstTokenMs: 0, tokensPerSecond: 1000, jitter: 0.1, seed: 3 } } },
    });
    expect(added.status).toBe(201);
    expect(server.stubs.list()[0]!.answer).toMatchObject({ reply: { pace: { tokensPerSecond: 1000 } } });
  });
});

const chat = (rest: object) => ({ operationId: 'createChatCompletion', ...rest });
const escaped = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

describe('refused values', () => {
  it.each([
    [
      'turn for an operation that is no chat completion',
      { operationId: 'listTools', match: { turn: 0 }, answer: { status: 200, body: { data: [], next_cursor: null } } },
      'match.turn is only for chat completions, not listTools',
    ],
    [
      'a negative turn',
      chat({ match: { turn: -1 }, answer: { reply: { content: 'x' } } }),
      'match.turn must be an integer >= 0 (the assistant messages before the last message)',
    ],
    [
      'a turn of 1.5',
      chat({ match: { turn: 1.5 }, answer: { reply: { content: 'x' } } }),
      'match.turn must be an integer >= 0 (the assistant messages before the last message)',
    ],
    [
      'lastToolResult for an operation that is no chat completion',
      { operationId: 'listTools', match: { lastToolResult: {} }, answer: { status: 200, body: { data: [], next_cursor: null } } },
      'match.lastToolResult is only for chat completions, not listTools',
    ],
    [
      'lastToolResult not an object',
      chat({ match: { lastToolResult: 'call_1' }, answer: { reply: { content: 'x' } } }),
      'match.lastToolResult must be an object: {} or { toolCallId: string }',
    ],
    [
      'a toolCallId not a string',
      chat({ match: { lastToolResult: { toolCallId: 1 } }, answer: { reply: { content: 'x' } } }),
      'match.lastToolResult.toolCallId must be a string',
    ],
    [
      'an unknown field of lastToolResult',
      chat({ match: { lastToolResult: { id: 'call_1' } }, answer: { reply: { content: 'x' } } }),
      'match.lastToolResult.id is not a field (known: toolCallId)',
    ],
    [
      'pace not an object',
      chat({ answer: { reply: { content: 'x', pace: 10 } } }),
      'answer.reply.pace must be { firstTokenMs, tokensPerSecond, jitter?, seed? }',
    ],
    [
      'pace without firstTokenMs',
      chat({ answer: { reply: { content: 'x', pace: { tokensPerSecond: 10 } } } }),
      'answer.reply.pace.firstTokenMs must be a number of milliseconds >= 0',
    ],
    [
      'a negative firstTokenMs',
      chat({ answer: { reply: { content: 'x', pace: { firstTokenMs: -1, tokensPerSecond: 10 } } } }),
      'answer.reply.pace.firstTokenMs must be a number of milliseconds >= 0',
    ],
    [
      'tokensPerSecond of 0',
      chat({ answer: { reply: { content: 'x', pace: { firstTokenMs: 0, tokensPerSecond: 0 } } } }),
      'answer.reply.pace.tokensPerSecond must be a number > 0',
    ],
    [
      'a jitter past 1',
      chat({ answer: { reply: { content: 'x', pace: { firstTokenMs: 0, tokensPerSecond: 10, jitter: 1.5 } } } }),
      'answer.reply.pace.jitter must be a number from 0 to 1',
    ],
    [
      'a seed that is no integer',
      chat({ answer: { reply: { content: 'x', pace: { firstTokenMs: 0, tokensPerSecond: 10, seed: 0.5 } } } }),
      'answer.reply.pace.seed must be an integer >= 0',
    ],
    [
      'an unknown field of pace',
      chat({ answer: { reply: { content: 'x', pace: { firstTokenMs: 0, tokensPerSecond: 10, speed: 2 } } } }),
      'answer.reply.pace.speed is not a field (known: firstTokenMs, tokensPerSecond, jitter, seed)',
    ],
  ])('%s: a TypeError naming the field in process, 422 over HTTP, nothing added', async (_, stub, message) => {
    expect(() => server.stubs.add(stub as never)).toThrow(escaped(message));
    const res = await addOverHttp(stub);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_params');
    expect(server.stubs.list()).toEqual([]);
  });

  it('a stubs file names the entry and the field', () => {
    expect(() => readStubFile(JSON.stringify([chat({ match: { turn: 'one' }, answer: { reply: { content: 'x' } } })]), 'stubs.json')).toThrow(
      'stubs.json: entry [0] (createChatCompletion): match.turn must be an integer >= 0 (the assistant messages before the last message)',
    );
  });
});

describe('typed by the operation', () => {
  it('turn, lastToolResult and pace compile only for chat completions, with their types', () => {
    // @ts-expect-error: listTools is no chat completion, so it takes no turn
    expect(() => server.stubs.add({ operationId: 'listTools', match: { turn: 0 }, answer: { status: 200, body: { data: [], next_cursor: null } } })).toThrow(
      TypeError,
    );
    // @ts-expect-error: a turn is a number
    expect(() => server.stubs.add({ operationId: 'createChatCompletion', match: { turn: '1' }, answer: { reply: { content: 'x' } } })).toThrow(TypeError);
    // @ts-expect-error: a pace needs tokensPerSecond
    expect(() => server.stubs.add({ operationId: 'createChatCompletion', answer: { reply: { content: 'x', pace: { firstTokenMs: 1 } } } })).toThrow(TypeError);
    const handle = server.stubs.add({
      operationId: 'createChatCompletion',
      match: { turn: 1, lastToolResult: { toolCallId: 'call_1' } },
      answer: { reply: { toolCalls: [{ name: 'f' }], pace: { firstTokenMs: 1, tokensPerSecond: 5, jitter: 0.2 } } },
    });
    expect(handle.id).toMatch(/^stb_/);
  });
});
