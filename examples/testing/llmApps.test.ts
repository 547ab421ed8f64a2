/**
 * Testing an LLM app against the embedded server's models plane, as docs/testing-llm-apps.md shows it (this file
 * runs under `npm test`; its regions are that page's snippets): tools, a tool loop scripted by the last user
 * message, structured output and streamed tool calls, with the official `openai` client, the Vercel AI SDK and
 * LangChain.
 */
import { afterAll, afterEach, expect, it } from 'vitest';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, tool } from 'ai';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
afterAll(() => server.close());
afterEach(() => server.reset());

it('oz-chat calls a forced tool with arguments valid against its parameters', async () => {
  // #region openai-tools
  const openai = new OpenAI({ apiKey: server.apiKey, baseURL: `${server.url}/v1`, fetch: server.fetch });
  const completion = await openai.chat.completions.create({
    model: 'oz-chat',
    messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    tools: [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
    ],
    tool_choice: 'required', // or { type: 'function', function: { name: 'get_weather' } }; 'auto' answers text
  });
  const call = completion.choices[0]!.message.tool_calls![0]!;
  console.log(completion.choices[0]!.finish_reason, call.type === 'function' && call.function.arguments); // tool_calls {"city":"string"}
  // #endregion
  expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'string' });
});

it('structured output: content valid against the schema', async () => {
  const openai = new OpenAI({ apiKey: server.apiKey, baseURL: `${server.url}/v1`, fetch: server.fetch });
  // #region structured
  const Ticket = z.object({ title: z.string(), priority: z.enum(['low', 'high']), labels: z.array(z.string()) });
  const parsed = await openai.chat.completions.parse({
    model: 'oz-chat',
    messages: [{ role: 'user', content: 'File a ticket for the login bug' }],
    response_format: zodResponseFormat(Ticket, 'ticket'),
  });
  console.log(parsed.choices[0]!.message.parsed); // { title: 'string', priority: 'low', labels: [ 'string' ] }
  // #endregion
  expect(Ticket.safeParse(parsed.choices[0]!.message.parsed).success).toBe(true);
});

it('a tool loop of two model turns, scripted by the last user message (the Vercel AI SDK)', async () => {
  // #region tool-loop
  server.stubs.add({
    operationId: 'createChatCompletion',
    match: { lastUserMessage: { contains: 'Oslo' } }, // or { pattern: '^Weather in \\w+\\?$' }
    answers: [
      { reply: { toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] } }, // the model's first turn
      { reply: { content: 'It is 12 degrees in Oslo.' } }, // its turn after the tool ran
    ],
  });
  const oz = createOpenAI({ apiKey: server.apiKey, baseURL: `${server.url}/v1`, fetch: server.fetch });
  const weather = tool({
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, degrees: 12 }),
  });
  const result = await generateText({ model: oz.chat('oz-chat'), tools: { weather }, stopWhen: stepCountIs(3), prompt: 'Weather in Oslo?' });
  console.log(result.text, result.steps.length); // It is 12 degrees in Oslo. 2
  // #endregion
  expect([result.text, result.steps.length]).toEqual(['It is 12 degrees in Oslo.', 2]);
});

it('a streamed tool call arrives as deltas (the openai client puts them together)', async () => {
  const openai = new OpenAI({ apiKey: server.apiKey, baseURL: `${server.url}/v1`, fetch: server.fetch });
  // #region streamed
  server.stubs.add({ operationId: 'createChatCompletion', answer: { reply: { toolCalls: [{ name: 'search', arguments: { query: 'oz-mock docs' } }] } } });
  const stream = openai.chat.completions.stream({
    model: 'oz-chat',
    messages: [{ role: 'user', content: 'Find the docs' }],
    tools: [{ type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } }],
  });
  stream.on('tool_calls.function.arguments.delta', ({ arguments_delta }) => process.stdout.write(arguments_delta)); // {"query":"oz-mock docs"}, in pieces
  const final = await stream.finalChatCompletion();
  // #endregion
  const call = final.choices[0]!.message.tool_calls![0]!;
  expect(call.type === 'function' && call.function.arguments).toBe('{"query":"oz-mock docs"}');
});

it('LangChain: bindTools and withStructuredOutput', async () => {
  // #region langchain
  const chat = new ChatOpenAI({ model: 'oz-chat', apiKey: server.apiKey, configuration: { baseURL: `${server.url}/v1`, fetch: server.fetch } });
  server.stubs.add({
    operationId: 'createChatCompletion',
    match: { lastUserMessage: { contains: 'Paris' } },
    answer: { reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
  });
  const withTools = chat.bindTools([
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ]);
  const message = await withTools.invoke('Weather in Paris?');
  console.log(message.tool_calls); // [ { name: 'get_weather', args: { city: 'Paris' }, id: 'call_...', type: 'tool_call' } ]
  const summary = await chat.withStructuredOutput(z.object({ summary: z.string(), words: z.number() })).invoke('Summarize');
  // #endregion
  expect(message.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
  expect(typeof summary.words).toBe('number');
});
