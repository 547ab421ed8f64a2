/**
 * The models plane under LangChain's `ChatOpenAI`: `bindTools` (a tool call scripted by the last user message, and
 * oz-chat's own call of a forced tool), a tool loop through `ToolMessage`, and `withStructuredOutput` with a zod
 * schema; in process (`server.fetch`) and over HTTP.
 */
import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listenedServer } from '../../support/listenedServer.js';

const running = listenedServer();

const weather = tool(async ({ city }) => JSON.stringify({ city, degrees: 12 }), {
  name: 'get_weather',
  description: 'The weather in a city',
  schema: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']) }),
});

describe.each([
  [
    'in process',
    () =>
      new ChatOpenAI({
        model: 'oz-chat',
        apiKey: running.server.apiKey,
        maxRetries: 0,
        configuration: { baseURL: `${running.server.url}/v1`, fetch: running.server.fetch },
      }),
  ],
  [
    'over HTTP',
    () => new ChatOpenAI({ model: 'oz-chat', apiKey: running.server.apiKey, maxRetries: 0, configuration: { baseURL: `${running.listener.url}/v1` } }),
  ],
])('ChatOpenAI %s', (_, chat) => {
  it('bindTools: a scripted call, run through the tool, then the answer that reads its result', async () => {
    running.server.stubs.add({
      operationId: 'createChatCompletion',
      match: { lastUserMessage: { contains: 'Oslo' } },
      answers: [
        { reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo', unit: 'celsius' } }] } },
        { reply: { content: 'It is 12 degrees in Oslo.' } },
      ],
    });
    const model = chat().bindTools([weather]);
    const messages: BaseMessage[] = [new HumanMessage('Weather in Oslo?')];
    const first = await model.invoke(messages);
    expect(first.tool_calls?.map((c) => [c.name, c.args])).toEqual([['get_weather', { city: 'Oslo', unit: 'celsius' }]]);
    messages.push(
      first,
      new ToolMessage({
        tool_call_id: first.tool_calls![0]!.id!,
        content: await weather.invoke(first.tool_calls![0]!.args as { city: string; unit: 'celsius' }),
      }),
    );
    const second = await model.invoke(messages);
    expect(second.content).toBe('It is 12 degrees in Oslo.');
  });

  it("bindTools with tool_choice: oz-chat's own call, its arguments valid against the tool's schema", async () => {
    const answer = await chat().bindTools([weather], { tool_choice: 'get_weather' }).invoke('Weather?');
    const call = answer.tool_calls![0]!;
    expect(call.name).toBe('get_weather');
    expect(weather.schema.safeParse(call.args).success).toBe(true);
  });

  it('withStructuredOutput: an object valid against the zod schema', async () => {
    const Plan = z.object({ steps: z.array(z.string()), estimate_hours: z.number(), risky: z.boolean() });
    const plan = await chat().withStructuredOutput(Plan).invoke('Plan the release');
    expect(Plan.safeParse(plan).success).toBe(true);
  });
});
