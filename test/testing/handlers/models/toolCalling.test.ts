/**
 * The models plane's tool calling and structured output, through the official `openai` client: oz-chat's
 * deterministic answers (a forced tool's call with arguments valid against its `parameters`, content valid against
 * a `json_schema`), OpenAI's streamed tool-call deltas, `n`, `stop`, `max_tokens`, usage, and every refused request.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOzServer, type OzServer } from '../../../../src/testing/index.js';

let server: OzServer;
let openai: OpenAI;

beforeAll(() => {
  server = createOzServer();
  openai = new OpenAI({ apiKey: server.apiKey, baseURL: `${server.url}/v1`, fetch: server.fetch, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const weatherParameters = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    when: { type: 'string', format: 'date-time' },
  },
  required: ['city', 'unit'],
  additionalProperties: false,
} as const;
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: weatherParameters } },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } } },
];
const ask = (content: string): OpenAI.Chat.ChatCompletionMessageParam[] => [{ role: 'user', content }];
const valid = (schema: object, value: unknown) => new Ajv2020({ strict: false }).validate(schema, value);

describe('without a script: deterministic answers', () => {
  it('a tool_choice naming a function answers its call, arguments valid against its parameters; the same request, the same answer', async () => {
    const body = { model: 'oz-chat', messages: ask('Weather in Oslo?'), tools, tool_choice: { type: 'function' as const, function: { name: 'get_weather' } } };
    const [first, second] = [await openai.chat.completions.create(body), await openai.chat.completions.create(body)];
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(call.function.name).toBe('get_weather');
    expect(valid(weatherParameters, JSON.parse(call.function.arguments))).toBe(true);
    expect(second.choices[0]!.message.tool_calls).toEqual(choice.message.tool_calls);
  });

  it("tool_choice 'required' calls the first tool; 'auto', 'none' and no tool_choice answer the text", async () => {
    const required = await openai.chat.completions.create({ model: 'oz-chat', messages: ask('x'), tools, tool_choice: 'required' });
    expect((required.choices[0]!.message.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall).function.name).toBe('get_weather');
    for (const tool_choice of ['auto', 'none', undefined] as const) {
      const answer = await openai.chat.completions.create({ model: 'oz-chat', messages: ask('Hi there'), tools, ...(tool_choice ? { tool_choice } : {}) });
      expect([answer.choices[0]!.message.content, answer.choices[0]!.finish_reason, answer.choices[0]!.message.tool_calls]).toEqual([
        'Hello from oz-chat. You said: Hi there',
        'stop',
        undefined,
      ]);
    }
  });

  it('a tool loop: the tool message answering the call gets the text answer', async () => {
    const first = await openai.chat.completions.create({ model: 'oz-chat', messages: ask('Weather?'), tools, tool_choice: 'required' });
    const call = first.choices[0]!.message.tool_calls![0]!;
    const second = await openai.chat.completions.create({
      model: 'oz-chat',
      tools,
      messages: [...ask('Weather?'), first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '12 degrees' }],
    });
    expect(second.choices[0]!.message.content).toBe('Hello from oz-chat. You said: Weather?');
  });

  it('json_schema through parse() with a zod format: content valid against the schema, parsed', async () => {
    const Event = z.object({ name: z.string(), date: z.string(), attendees: z.array(z.string()), priority: z.enum(['low', 'high']) });
    const completion = await openai.chat.completions.parse({ model: 'oz-chat', messages: ask('Plan it'), response_format: zodResponseFormat(Event, 'event') });
    const parsed = completion.choices[0]!.message.parsed!;
    expect(Event.safeParse(parsed).success).toBe(true);
    expect(parsed.priority).toBe('low');
  });

  it('json_object answers a JSON object holding the text', async () => {
    const answer = await openai.chat.completions.create({ model: 'oz-chat', messages: ask('Say it in JSON'), response_format: { type: 'json_object' } });
    expect(JSON.parse(answer.choices[0]!.message.content!)).toEqual({ content: 'Hello from oz-chat. You said: Say it in JSON' });
  });

  it('n choices, each with its index; stop ends the content before the sequence; max_tokens cuts it (length); usage counts every choice', async () => {
    const three = await openai.chat.completions.create({ model: 'oz-chat', messages: ask('one two'), n: 3 });
    expect(three.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(three.usage!.completion_tokens).toBe(3 * 7);
    const stopped = await openai.chat.completions.create({ model: 'oz-chat', messages: ask('one two'), stop: ['You said'] });
    expect([stopped.choices[0]!.message.content, stopped.choices[0]!.finish_reason]).toEqual(['Hello from oz-chat. ', 'stop']);
    const cut = await openai.chat.completions.create({ model: 'oz-chat', messages: ask('one two'), max_completion_tokens: 2 });
    expect([cut.choices[0]!.message.content, cut.choices[0]!.finish_reason]).toEqual(['Hello from ', 'length']);
  });
});

describe('streamed tool calls in the delta form', () => {
  it('the first delta of a call carries its id and name, the arguments follow in pieces; the stream helper puts them together', async () => {
    const body = { model: 'oz-chat', messages: ask('Weather?'), tools, tool_choice: 'required' as const };
    const deltas: OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    const stream = openai.chat.completions.stream({ ...body, stream_options: { include_usage: true } });
    stream.on('chunk', (chunk) => deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? [])));
    const final = await stream.finalChatCompletion();
    const whole = await openai.chat.completions.create(body);
    expect(final.choices[0]!.message.tool_calls).toEqual(whole.choices[0]!.message.tool_calls);
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(deltas[0]).toMatchObject({
      index: 0,
      id: whole.choices[0]!.message.tool_calls![0]!.id,
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.slice(1).every((d) => d.id === undefined && d.function?.name === undefined)).toBe(true);
    expect(final.usage?.total_tokens).toBe(whole.usage!.total_tokens);
  });
});

describe('refused requests: 422 invalid_params naming the field (OpenAI’s param)', () => {
  const refusal = async (body: Record<string, unknown>) => {
    const error = await openai.chat.completions.create({ model: 'oz-chat', messages: ask('x'), ...body } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    return (error as InstanceType<typeof OpenAI.APIError>).error as { code: string; param: string; message: string };
  };

  it.each([
    ['tool_choice without tools', { tool_choice: 'required' }, 'tool_choice'],
    ['a tool_choice naming no tool', { tools, tool_choice: { type: 'function', function: { name: 'nope' } } }, 'tool_choice'],
    ['two tools of one name', { tools: [tools[0], tools[0]] }, 'tools[1].function.name'],
    ['a tool message without tool_call_id', { messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
    [
      'a tool message answering no call',
      {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'call_x', content: 'x' },
        ],
      },
      'messages[1].tool_call_id',
    ],
    [
      'tool_calls on a user message',
      { messages: [{ role: 'user', content: 'x', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }] },
      'messages[0].tool_calls',
    ],
    ['max_tokens and max_completion_tokens that disagree', { max_tokens: 2, max_completion_tokens: 3 }, 'max_completion_tokens'],
    [
      'parameters oz-chat cannot fill (a pattern)',
      {
        tools: [
          {
            type: 'function',
            function: { name: 'f', parameters: { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } }, required: ['code'] } },
          },
        ],
        tool_choice: 'required',
      },
      'tools[0].function.parameters',
    ],
    [
      'parameters that are no usable schema',
      { tools: [{ type: 'function', function: { name: 'f', parameters: { $ref: '#/$defs/none' } } }], tool_choice: 'required' },
      'tools[0].function.parameters',
    ],
    [
      'parameters that refer to themselves',
      {
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { a: { $ref: '#' } }, required: ['a'] } } }],
        tool_choice: 'required',
      },
      'tools[0].function.parameters',
    ],
    [
      'parameters asking for 100 million items',
      {
        tools: [
          {
            type: 'function',
            function: {
              name: 'f',
              parameters: { type: 'object', properties: { a: { type: 'array', minItems: 1e8, items: { type: 'string' } } }, required: ['a'] },
            },
          },
        ],
        tool_choice: 'required',
      },
      'tools[0].function.parameters',
    ],
    [
      'a json_schema asking for a string of 200 million characters',
      { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'string', minLength: 2e8 } } } },
      'response_format.json_schema.schema',
    ],
    [
      'a json_schema oz-chat cannot fill',
      { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'string', pattern: '^a{5}$' } } } },
      'response_format.json_schema.schema',
    ],
    ['n of 0', { n: 0 }, 'n'],
    ['five stop sequences', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
  ])('%s', async (_, body, param) => {
    const error = await refusal(body);
    expect([error.code, error.param]).toEqual(['invalid_params', param]);
    expect(error.message.length).toBeGreaterThan(10);
  });

  it('a refused request is not charged', async () => {
    const before = server.wallet('demo').spent_usd;
    await refusal({ tool_choice: 'required' });
    expect(server.wallet('demo').spent_usd).toBe(before);
  });
});
