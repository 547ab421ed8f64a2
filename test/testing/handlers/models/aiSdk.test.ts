/**
 * The models plane under the Vercel AI SDK (`ai` with `@ai-sdk/openai`'s chat models): a tool loop of two model
 * turns scripted by the last user message, a streamed text and a streamed tool call, and structured output with
 * `generateObject`; in process (`server.fetch`) and over HTTP.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateObject, generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listenedServer } from '../../support/listenedServer.js';

const running = listenedServer();

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, degrees: 12 }),
});

describe.each([
  ['in process', () => createOpenAI({ apiKey: running.server.apiKey, baseURL: `${running.server.url}/v1`, fetch: running.server.fetch })],
  ['over HTTP', () => createOpenAI({ apiKey: running.server.apiKey, baseURL: `${running.listener.url}/v1` })],
])('the AI SDK %s', (_, provider) => {
  it('generateText with a tool: two model turns scripted by the last user message, the tool run between them', async () => {
    running.server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastUserMessage: { contains: 'Oslo' } },
      answers: [{ reply: { toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] } }, { reply: { content: 'It is 12 degrees in Oslo.' } }],
    });
    const result = await generateText({ model: provider().chat('oz-chat'), tools: { weather }, stopWhen: stepCountIs(3), prompt: 'Weather in Oslo?' });
    expect(result.text).toBe('It is 12 degrees in Oslo.');
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual([{ city: 'Oslo', degrees: 12 }]);
    // The second turn carried the tool's result back to the model.
    expect(running.server.journal.last('createChatCompletion')!.body).toContain('"role":"tool"');
  });

  it('streamText: the text as it streams, then whole', async () => {
    const result = streamText({ model: provider().chat('oz-chat'), prompt: 'one two three' });
    const parts: string[] = [];
    for await (const text of result.textStream) parts.push(text);
    expect(parts.join('')).toBe('Hello from oz-chat. You said: one two three');
    expect(parts.length).toBeGreaterThan(1);
    expect((await result.usage).outputTokens).toBe(8);
  });

  it('streamText with a tool: the streamed call (deltas) is run, then the next turn streams the answer', async () => {
    running.server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastUserMessage: { contains: 'Bergen' } },
      answers: [{ reply: { toolCalls: [{ name: 'weather', arguments: { city: 'Bergen' } }] } }, { reply: { content: 'Rain in Bergen.' } }],
    });
    const result = streamText({ model: provider().chat('oz-chat'), tools: { weather }, stopWhen: stepCountIs(3), prompt: 'Weather in Bergen?' });
    expect(await result.text).toBe('Rain in Bergen.');
    const steps = await result.steps;
    expect(steps[0]!.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['weather', { city: 'Bergen' }]]);
  });

  it('generateObject: an object valid against the zod schema, from oz-chat without a script', async () => {
    const schema = z.object({ title: z.string(), tags: z.array(z.string()), done: z.boolean() });
    const { object } = await generateObject({ model: provider().chat('oz-chat'), schema, prompt: 'Make a task' });
    expect(schema.safeParse(object).success).toBe(true);
  });
});
