import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ChatCompletion, EmbeddingResponse } from '../../../src/generated/types.js';
import type { OzListener, OzServer } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';
import { readEvents } from '../support/sseEvents.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

const servers = testServersForSuite();
let server: OzServer;
let listener: OzListener | undefined;

const chat = (body: unknown, key?: string | null) => callJson<ChatCompletion & ErrorBody>(server, 'POST', '/v1/chat/completions', { body, key });

describe('the models plane (in process)', () => {
  it('lists oz-chat and oz-embed in OpenAI’s shape', async () => {
    server = servers.create();
    const res = await callJson<{ object: string; data: Array<{ id: string; object: string; owned_by: string }> }>(server, 'GET', '/v1/models');
    expect(res.body.object).toBe('list');
    expect(res.body.data.map((m) => [m.id, m.object, m.owned_by])).toEqual([
      ['oz-chat', 'model', 'oz'],
      ['oz-embed', 'model', 'oz'],
    ]);
  });

  it('answers chat completions deterministically, with usage, and meters them on the wallet', async () => {
    server = servers.create();
    const body = {
      model: 'oz-chat',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi there' },
      ],
    };
    const a = await chat(body);
    const b = await chat(body);
    expect(a.status).toBe(200);
    expect(a.body.choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: 'Hello from oz-chat. You said: hi there', refusal: null },
      finish_reason: 'stop',
      logprobs: null,
    });
    expect(a.body.usage).toEqual({ prompt_tokens: 4, completion_tokens: 7, total_tokens: 11 });
    expect(b.body.choices[0]!.message.content).toBe(a.body.choices[0]!.message.content);
    expect(server.wallet('demo').spent_usd).toBeCloseTo(2 * 11 * 0.000002, 9);
  });

  it('stops at max_tokens with finish_reason length', async () => {
    server = servers.create();
    const res = await chat({ model: 'oz-chat', messages: [{ role: 'user', content: 'x' }], max_tokens: 2 });
    expect(res.body.choices[0]).toMatchObject({ message: { content: 'Hello from ' }, finish_reason: 'length' });
  });

  it('streams chat.completion.chunk events, then usage when asked, then data: [DONE]', async () => {
    server = servers.create();
    const res = await call(server, 'POST', '/v1/chat/completions', {
      body: { model: 'oz-chat', messages: [{ role: 'user', content: 'yo' }], stream: true, stream_options: { include_usage: true } },
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { events } = await readEvents(res);
    expect(events[events.length - 1]!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map(
      (e) =>
        JSON.parse(e.data) as {
          object: string;
          choices: Array<{ delta: { content?: string; role?: string }; finish_reason: string | null }>;
          usage?: unknown;
        },
    );
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello from oz-chat. You said: yo');
    expect(chunks[chunks.length - 2]!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks[chunks.length - 1]).toMatchObject({ choices: [], usage: { completion_tokens: 6 } });
  });

  it('answers deterministic unit-length embeddings, as floats or base64', async () => {
    server = servers.create();
    const res = await callJson<EmbeddingResponse>(server, 'POST', '/v1/embeddings', { body: { model: 'oz-embed', input: ['alpha', 'beta'] } });
    const [a, b] = res.body.data.map((d) => d.embedding as number[]);
    expect(a).toHaveLength(16);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect(a).not.toEqual(b);
    const again = await callJson<EmbeddingResponse>(server, 'POST', '/v1/embeddings', {
      body: { model: 'oz-embed', input: 'alpha', encoding_format: 'base64', dimensions: 4 },
    });
    const decoded = Array.from(new Float32Array(Uint8Array.from(Buffer.from(again.body.data[0]!.embedding as string, 'base64')).buffer));
    expect(decoded).toHaveLength(4);
    expect(res.body.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
  });

  it('answers OpenAI-style errors with type and param: unknown model 404, bad fields 422, bad JSON 400', async () => {
    server = servers.create();
    const unknown = await chat({ model: 'gpt-9', messages: [{ role: 'user', content: 'x' }] });
    expect([unknown.status, unknown.body.error]).toEqual([
      404,
      { code: 'model_not_found', message: 'The model gpt-9 does not exist.', param: 'model', type: 'invalid_request_error' },
    ]);
    const noMessages = await chat({ model: 'oz-chat', messages: [] });
    expect([noMessages.status, noMessages.body.error.param, noMessages.body.error.type]).toEqual([422, 'messages', 'invalid_request_error']);
    expect((await chat({ model: 'oz-embed', messages: [{ role: 'user', content: 'x' }] })).status).toBe(422);
    expect((await chat({ model: 'oz-chat', messages: [{ role: 'robot', content: 'x' }] })).status).toBe(422);
    expect((await chat({ model: 'oz-chat', messages: [{ role: 'user', content: 'x' }], n: 0 })).status).toBe(422);
    expect((await chat({ model: 'oz-chat', messages: [{ role: 'user', content: 'x' }], n: 129 })).status).toBe(422);
    expect((await callJson<ErrorBody>(server, 'POST', '/v1/embeddings', { body: { model: 'oz-chat', input: 'x' } })).status).toBe(422);
    expect((await callJson<ErrorBody>(server, 'POST', '/v1/embeddings', { body: { model: 'oz-embed', input: [] } })).status).toBe(422);
    const bad = await call(server, 'POST', '/v1/chat/completions', { body: 'model: oz-chat', headers: { 'content-type': 'text/yaml' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error).toMatchObject({ code: 'invalid_json', type: 'invalid_request_error' });
  });

  it('auth: bearer ozk_ and sk-mdl- keys; X-API-Key answers 401; sk-prx- answers 401', async () => {
    server = servers.create();
    const body = { model: 'oz-chat', messages: [{ role: 'user', content: 'x' }] };
    expect((await chat(body, server.keys.modelsKey)).status).toBe(200);
    expect((await call(server, 'GET', '/v1/models', { key: server.keys.modelsKey })).status).toBe(200);
    expect((await call(server, 'GET', '/v1/models', { key: server.keys.proxyKey })).status).toBe(401);
    const viaHeader = await callJson<ErrorBody>(server, 'GET', '/v1/models', { key: null, headers: { 'x-api-key': server.apiKey } });
    expect([viaHeader.status, viaHeader.body.error.type, viaHeader.headers.get('x-error-code')]).toEqual([401, 'authentication_error', 'unauthorized']);
    const both = await call(server, 'POST', '/v1/embeddings', {
      body: { model: 'oz-embed', input: 'x' },
      headers: { authorization: `Bearer ${server.apiKey}`, 'x-api-key': server.apiKey },
    });
    expect(both.status).toBe(401);
  });
});

describe('the official openai client over real HTTP', () => {
  async function client(options: { apiKey?: string; defaultHeaders?: Record<string, string | null> } = {}) {
    listener = await server.listen();
    return new OpenAI({ apiKey: options.apiKey ?? server.apiKey, baseURL: `${listener.url}/v1`, maxRetries: 0, defaultHeaders: options.defaultHeaders });
  }

  it('lists models, creates a chat completion, streams one, and embeds', async () => {
    server = servers.create();
    const openai = await client();
    const models = [];
    for await (const m of openai.models.list()) models.push(m.id);
    expect(models).toEqual(['oz-chat', 'oz-embed']);
    const completion = await openai.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'ping' }] });
    expect(completion.choices[0]!.message.content).toBe('Hello from oz-chat. You said: ping');
    const stream = await openai.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'ping' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from oz-chat. You said: ping');
    const embedding = await openai.embeddings.create({ model: 'oz-embed', input: 'ping' });
    const direct = await openai.embeddings.create({ model: 'oz-embed', input: 'ping', encoding_format: 'float' });
    expect(embedding.data[0]!.embedding).toHaveLength(16);
    expect(embedding.data[0]!.embedding).toEqual(direct.data[0]!.embedding);
  });

  it('works with the legacy sk-mdl- key, and raises AuthenticationError for X-API-Key', async () => {
    server = servers.create();
    const legacy = await client({ apiKey: server.keys.modelsKey });
    expect((await legacy.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'x' }] })).object).toBe('chat.completion');
    const viaHeader = new OpenAI({
      apiKey: 'unused',
      baseURL: `${listener!.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { Authorization: null, 'X-API-Key': server.apiKey },
    });
    const err = await viaHeader.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((err as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
  });

  it('raises NotFoundError for an unknown model', async () => {
    server = servers.create();
    const openai = await client();
    await expect(openai.chat.completions.create({ model: 'gpt-9', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('retrieves one model with models.retrieve, and raises NotFoundError model_not_found for an unknown one', async () => {
    server = servers.create();
    const openai = await client();
    expect(await openai.models.retrieve('oz-chat')).toEqual({ id: 'oz-chat', object: 'model', created: 1_767_225_600, owned_by: 'oz' });
    expect((await openai.models.retrieve('oz-embed')).id).toBe('oz-embed');
    const err = await openai.models.retrieve('gpt-9').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    const notFound = err as InstanceType<typeof OpenAI.NotFoundError>;
    expect([notFound.status, notFound.code, notFound.type, notFound.param]).toEqual([404, 'model_not_found', 'invalid_request_error', null]);
    expect(notFound.message).toMatch(/The model gpt-9 does not exist/);
  });

  it('works in process with fetch: server.fetch', async () => {
    server = servers.create();
    const openai = new OpenAI({ apiKey: server.apiKey, baseURL: `${server.url}/v1`, fetch: server.fetch, maxRetries: 0 });
    expect((await openai.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'here' }] })).choices[0]!.message.content).toContain(
      'here',
    );
  });
});
