/**
 * Chat completions scripted by the last user message (`match.lastUserMessage`, `answer.reply`): content or tool
 * calls, rendered whole or as OpenAI's chunks, in sequences (a tool loop of two turns), through the official
 * `openai` client in process and over HTTP with stubs added through the control plane; every refused stub.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OzListener, OzServer } from '../../../../src/testing/index.js';
import { listenedServer } from '../../support/listenedServer.js';

const TOKEN = 'ozadm_ChatChatChatChatChatChatChatCh00';
const suite = listenedServer({ adminToken: TOKEN });
let server: OzServer;
let listener: OzListener;
let inProcess: OpenAI;
let overHttp: OpenAI;

beforeAll(() => {
  ({ server, listener } = suite);
  inProcess = new OpenAI({ apiKey: server.apiKey, baseURL: `${server.url}/v1`, fetch: server.fetch, maxRetries: 0 });
  overHttp = new OpenAI({ apiKey: server.apiKey, baseURL: `${listener.url}/v1`, maxRetries: 0 });
});

const tools: OpenAI.Chat.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
];
const ask = (content: string): OpenAI.Chat.ChatCompletionMessageParam[] => [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content },
];
const functionCall = (call: OpenAI.Chat.ChatCompletionMessageToolCall | undefined) => (call as OpenAI.Chat.ChatCompletionMessageFunctionToolCall).function;

async function addOverHttp(stub: object): Promise<Response> {
  return fetch(`${listener.url}/_oz/stubs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(stub),
  });
}

describe('scripted replies', () => {
  it('by what the last user message contains, or a pattern; other messages get oz-chat', async () => {
    server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastUserMessage: { contains: 'weather' } },
      answer: { reply: { content: 'Sunny in Oslo.' } },
    });
    server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastUserMessage: { pattern: '^translate (\\w+)$' } },
      answer: { reply: { content: 'Hei.' } },
    });
    const answer = async (content: string) =>
      (await inProcess.chat.completions.create({ model: 'oz-chat', messages: ask(content) })).choices[0]!.message.content;
    expect(await answer("What's the weather?")).toBe('Sunny in Oslo.');
    expect(await answer('translate hello')).toBe('Hei.');
    expect(await answer('translate hello please')).toBe('Hello from oz-chat. You said: translate hello please');
  });

  it('a reply of tool calls: the calls as scripted, finish_reason tool_calls; streamed, the same calls in deltas', async () => {
    server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastUserMessage: { contains: 'Oslo' } },
      answer: { reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] } },
    });
    const whole = await inProcess.chat.completions.create({ model: 'oz-chat', messages: ask('Weather in Oslo?'), tools });
    expect(whole.choices[0]!.finish_reason).toBe('tool_calls');
    expect(functionCall(whole.choices[0]!.message.tool_calls![0])).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    const streamed = await inProcess.chat.completions.stream({ model: 'oz-chat', messages: ask('Weather in Oslo?'), tools }).finalChatCompletion();
    expect(streamed.choices[0]!.message.tool_calls).toEqual(whole.choices[0]!.message.tool_calls);
  });

  it('a tool loop of two turns as a sequence: the call first, then the answer that reads the tool result', async () => {
    server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastUserMessage: { contains: 'Oslo' } },
      answers: [{ reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] } }, { reply: { content: 'It is 12 degrees in Oslo.' } }],
    });
    const messages = ask('Weather in Oslo?');
    const first = await inProcess.chat.completions.create({ model: 'oz-chat', messages, tools });
    const call = first.choices[0]!.message.tool_calls![0]!;
    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '{"degrees":12}' });
    const second = await inProcess.chat.completions.create({ model: 'oz-chat', messages, tools });
    expect(second.choices[0]!.message.content).toBe('It is 12 degrees in Oslo.');
    expect(server.stubs.list()[0]).toMatchObject({ hits: 2, position: 1 });
  });

  it('a scripted reply is charged and answers with the stub’s headers; stop and max_tokens apply to it', async () => {
    server.stubs.add({ operationId: 'createChatCompletion', answer: { reply: { content: 'one two three four' }, headers: { 'x-scripted': 'yes' } } });
    const { data, response } = await inProcess.chat.completions.create({ model: 'oz-chat', messages: ask('x'), max_tokens: 2 }).withResponse();
    expect([data.choices[0]!.message.content, data.choices[0]!.finish_reason, response.headers.get('x-scripted')]).toEqual(['one two ', 'length', 'yes']);
    expect(server.wallet('demo').spent_usd).toBeGreaterThan(0);
  });

  it('over HTTP: a stub added through the control plane scripts the reply, streamed as chunks', async () => {
    const added = await addOverHttp({
      operationId: 'createChatCompletion',
      match: { lastUserMessage: { contains: 'hello' } },
      answer: { reply: { content: 'Hi from a script.' } },
    });
    expect(added.status).toBe(201);
    const chunks: string[] = [];
    const stream = await overHttp.chat.completions.create({ model: 'oz-chat', messages: ask('hello'), stream: true });
    for await (const chunk of stream) chunks.push(chunk.choices[0]?.delta.content ?? '');
    expect(chunks.join('')).toBe('Hi from a script.');
    expect(chunks.filter(Boolean).length).toBeGreaterThan(1);
  });
});

describe('refused stubs', () => {
  it.each([
    [
      'a reply for an operation that is no chat completion',
      { operationId: 'listTools', answer: { reply: { content: 'x' } } },
      'answer.reply is only for chat completions, not listTools',
    ],
    [
      'lastUserMessage for an operation that is no chat completion',
      { operationId: 'listTools', match: { lastUserMessage: { contains: 'x' } }, answer: { status: 200, body: { data: [], next_cursor: null } } },
      'match.lastUserMessage is only for chat completions, not listTools',
    ],
    [
      'both contains and pattern',
      { operationId: 'createChatCompletion', match: { lastUserMessage: { contains: 'a', pattern: 'b' } }, answer: { reply: { content: 'x' } } },
      'match.lastUserMessage must be { contains: string } or { pattern: string }',
    ],
    [
      'a pattern that would backtrack',
      { operationId: 'createChatCompletion', match: { lastUserMessage: { pattern: '(a)\\1' } }, answer: { reply: { content: 'x' } } },
      /^match\.lastUserMessage\.pattern is not supported/,
    ],
    [
      'content and toolCalls',
      { operationId: 'createChatCompletion', answer: { reply: { content: 'x', toolCalls: [{ name: 'f' }] } } },
      'answer.reply: give content or toolCalls (one of them)',
    ],
    [
      'a reply with a body',
      { operationId: 'createChatCompletion', answer: { reply: { content: 'x' }, body: {} } },
      'Give answer.reply alone: the models plane renders it (no body, events or cut)',
    ],
    [
      'a reply with status 201',
      { operationId: 'createChatCompletion', answer: { status: 201, reply: { content: 'x' } } },
      'answer.status of a reply is 200 (or left out)',
    ],
    [
      'a tool call without a function name',
      { operationId: 'createChatCompletion', answer: { reply: { toolCalls: [{ name: 'a b' }] } } },
      'answer.reply.toolCalls[0].name must be a function name (letters, digits, _ or -, at most 64)',
    ],
    [
      'arguments that are no object',
      { operationId: 'createChatCompletion', answer: { reply: { toolCalls: [{ name: 'f', arguments: '{}' }] } } },
      'answer.reply.toolCalls[0].arguments must be an object',
    ],
  ])('%s: a TypeError in process, 422 over HTTP, nothing added', async (_, stub, message) => {
    expect(() => server.stubs.add(stub as never)).toThrow(
      message instanceof RegExp ? message : new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    );
    const res = await addOverHttp(stub);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_params');
    expect(server.stubs.list()).toEqual([]);
  });
});

describe('typed by the operation', () => {
  it('reply and lastUserMessage compile only for chat completions', () => {
    // @ts-expect-error: listTools is no chat completion, so it takes no reply
    expect(() => server.stubs.add({ operationId: 'listTools', answer: { reply: { content: 'x' } } })).toThrow(TypeError);
    // Kept on one line: a @ts-expect-error covers only the line after it.
    // prettier-ignore
    // @ts-expect-error: nor a match by the last user message
    expect(() => server.stubs.add({ operationId: 'listTools', match: { lastUserMessage: { contains: 'x' } }, answer: { status: 200, body: { data: [], next_cursor: null } } })).toThrow(TypeError);
    // @ts-expect-error: a reply is content or tool calls, not both
    expect(() => server.stubs.add({ operationId: 'createChatCompletion', answer: { reply: { content: 'x', toolCalls: [{ name: 'f' }] } } })).toThrow(TypeError);
    const handle = server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastUserMessage: { pattern: 'x' } },
      answer: { reply: { toolCalls: [{ name: 'f', arguments: { a: 1 } }] } },
    });
    expect(handle.id).toMatch(/^stb_/);
  });
});
