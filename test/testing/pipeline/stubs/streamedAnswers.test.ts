/**
 * Streamed stub answers (`events`, `delayMs`, `cut`): an agent stream, a workflow stream and a chat completion
 * stream scripted event by event, read by the SDK's own streams (and the official `openai` client), in process
 * and over HTTP; events are checked against openapi.json's event schemas.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApprovalRequiredError, Oz, OzStreamInterruptedError } from '../../../../src/index.js';
import { createOzServer, type OzListener, type OzServer } from '../../../../src/testing/index.js';
import { listenedServer } from '../../support/listenedServer.js';

const TOKEN = 'ozadm_EvtEvtEvtEvtEvtEvtEvtEvtEvtEvtEv';
const suite = listenedServer({ adminToken: TOKEN });
let server: OzServer;
let listener: OzListener;
let oz: Oz;

beforeAll(() => {
  ({ server, listener } = suite);
  oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, maxRetries: 0, logLevel: 'off' });
});

const refusal = { error: { code: 'approval_required', message: 'Needs a human.' } };
const result = (content: string) => ({ ok: true, content, execution_id: 'exe_EvtEvtEvtEvtEvtEvtEvtEvtEvtEvtEv', request_id: 'req_evt' });

describe('in process', () => {
  it('an agent streams Hel, lo, then an error event: the SDK reads the tokens, then throws the typed error', async () => {
    server.stubs.add({
      operationId: 'executeAgent',
      answer: {
        status: 200,
        events: [
          { event: 'token', data: { delta: 'Hel' } },
          { event: 'token', data: { delta: 'lo' } },
          { event: 'error', data: refusal },
        ],
      },
    });
    const stream = await oz.agents.execute({ agent: 'writer', user_request: 'hi', stream: true });
    const tokens: string[] = [];
    const error = await (async () => {
      for await (const text of stream.textDeltas()) tokens.push(text);
    })().catch((e: unknown) => e);
    expect(tokens).toEqual(['Hel', 'lo']);
    expect(error).toBeInstanceOf(ApprovalRequiredError);
  });

  it('answers only the requests that stream: the same call without stream: true gets the server', async () => {
    server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'result', data: result('scripted') }] } });
    expect((await oz.agents.execute({ agent: 'writer', user_request: 'plain' })).content).toBe('Here is a draft for: plain');
    expect(await (await oz.agents.execute({ agent: 'writer', user_request: 'x', stream: true })).finalResult()).toMatchObject({ content: 'scripted' });
    expect(server.stubs.list()[0]!.hits).toBe(1);
  });

  it('a workflow stream of step and token events ends with its result: finalResult() reads it', async () => {
    server.stubs.add({
      operationId: 'executeWorkflowStream',
      answer: {
        status: 200,
        events: [
          { event: 'step', data: { task_id: 'draft', status: 'started' } },
          { event: 'token', data: { delta: 'Done' } },
          { event: 'step', data: { task_id: 'draft', status: 'succeeded' } },
          { event: 'result', data: result('Done') },
        ],
      },
    });
    const stream = await oz.workflows.executeStream({ tasks: [{ id: 'draft', type: 'task', agent: 'writer' }], user_request: 'x' } as never);
    const names: string[] = [];
    for await (const event of stream) names.push((event as { event: string }).event);
    expect(names).toEqual(['step', 'token', 'step', 'result']);
    expect(await stream.finalResult()).toMatchObject({ content: 'Done' });
  });

  it('delayMs waits on the server clock: on a frozen clock an event leaves when the clock is advanced', async () => {
    const frozen = createOzServer({ clock: { frozen: true } });
    try {
      const client = new Oz({ baseURL: frozen.url, apiKey: frozen.apiKey, fetch: frozen.fetch, maxRetries: 0, logLevel: 'off' });
      frozen.stubs.add({
        operationId: 'executeAgent',
        answer: {
          status: 200,
          events: [
            { event: 'token', data: { delta: 'now' } },
            { event: 'token', data: { delta: ' later' }, delayMs: 60_000 },
            { event: 'result', data: result('now later') },
          ],
        },
      });
      const stream = await client.agents.execute({ agent: 'writer', user_request: 'x', stream: true });
      const iterator = stream.textDeltas()[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toBe('now');
      const second = iterator.next();
      const raced = await Promise.race([second, new Promise((resolve) => setTimeout(() => resolve('waiting'), 50))]);
      expect(raced).toBe('waiting');
      await frozen.clock.advance(60_000);
      expect((await second).value).toBe(' later');
      expect((await iterator.next()).done).toBe(true); // the result event ends the loop
      expect(await stream.finalResult()).toMatchObject({ content: 'now later' });
    } finally {
      await frozen.close();
    }
  });

  it('cut drops the connection after n events: the SDK throws OzStreamInterruptedError with the text received', async () => {
    server.stubs.add({
      operationId: 'executeAgent',
      answer: {
        status: 200,
        events: [
          { event: 'token', data: { delta: 'Hel' } },
          { event: 'token', data: { delta: 'lo' } },
          { event: 'result', data: result('Hello') },
        ],
        cut: { afterEvents: 1 },
        headers: { 'x-execution-id': 'exe_EvtEvtEvtEvtEvtEvtEvtEvtEvtEvtEv' },
      },
    });
    const stream = await oz.agents.execute({ agent: 'writer', user_request: 'x', stream: true });
    const error = await stream.finalText().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    expect(error).toMatchObject({ receivedText: 'Hel', executionId: 'exe_EvtEvtEvtEvtEvtEvtEvtEvtEvtEvtEv' });
  });

  it('a chat completion stream of scripted chunks, read by the official openai client', async () => {
    const chunk = (delta: { role?: 'assistant'; content?: string }, finish: 'stop' | null) => ({
      id: 'chatcmpl-evt',
      object: 'chat.completion.chunk' as const,
      created: 1,
      model: 'oz-chat',
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
    server.stubs.add({
      operationId: 'createChatCompletion',
      answer: {
        status: 200,
        events: [
          { data: chunk({ role: 'assistant', content: '' }, null) },
          { data: chunk({ content: 'Scripted' }, null) },
          { data: chunk({ content: ' reply' }, null) },
          { data: chunk({}, 'stop') },
        ],
      },
    });
    const openai = new OpenAI({ baseURL: `${listener.url}/v1`, apiKey: server.apiKey, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
    expect(text).toBe('Scripted reply');
  });

  it('refuses events openapi.json does not allow (422 naming the event) unless unchecked, and bad shapes with a TypeError', () => {
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'tokn', data: { delta: 'x' } }] } })).toThrow(
      /answer\.events\[0\] does not fit openapi\.json's ExecuteStreamEvent/,
    );
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'token', data: { delta: 1 } }] } })).toThrow(
      /answer\.events\[0\]/,
    );
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'listTools', answer: { status: 200, events: [{ event: 'token', data: { delta: 'x' } }] } })).toThrow(
      /listTools never streams/,
    );
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeAgent', answer: { status: 500, events: [{ event: 'token', data: { delta: 'x' } }] } })).toThrow(
      /a streamed answer is a 200/,
    );
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'createChatCompletion', answer: { status: 200, events: [{ event: 'token', data: {} }] } })).toThrow(
      /chunks have no event name/,
    );
    // Kept on one line: a @ts-expect-error covers only the line after it.
    // prettier-ignore
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, body: {}, events: [{ event: 'token', data: { delta: 'x' } }] } })).toThrow(/not both/);
    expect(() => server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [] } })).toThrow(/non-empty array/);
    expect(() =>
      server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'token', data: { delta: 'x' } }], cut: { afterEvents: 2 } } }),
    ).toThrow(/cut\.afterEvents must be an integer from 0 to 1/);
    expect(() =>
      server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'token', data: { delta: 'x' }, delayMs: -1 }] } }),
    ).toThrow(/delayMs must be a number >= 0/);
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'bad name', data: 'x' }] } })).toThrow(
      /event must be a name/,
    );
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'x', data: 'a\nb' }] } })).toThrow(/line break/);
    // @ts-expect-error refused at compile time too
    expect(() => server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, cut: { afterEvents: 1 } } })).toThrow(/cut goes with answer\.events/);
    expect(server.stubs.list()).toEqual([]);
    expect(server.stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'surprise', data: 'x' }] }, unchecked: true }).id).toMatch(
      /^stb_/,
    );
  });
});

describe('over HTTP', () => {
  it('POST /_oz/stubs takes events and cut; the stream goes out on the socket, event by event', async () => {
    const added = await fetch(`${listener.url}/_oz/stubs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        operationId: 'executeAgent',
        answer: {
          status: 200,
          events: [
            { event: 'token', data: { delta: 'A' } },
            { event: 'token', data: { delta: 'B' }, delayMs: 5 },
            { event: 'result', data: result('AB') },
          ],
        },
      }),
    });
    expect(added.status).toBe(201);
    const res = await fetch(`${listener.url}/v1/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'writer', user_request: 'x', stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text.match(/^event: \w+$/gm)).toEqual(['event: token', 'event: token', 'event: result']);
    expect(text).toContain('data: {"delta":"B"}');

    const client = new Oz({ baseURL: listener.url, apiKey: server.apiKey, maxRetries: 0, logLevel: 'off' });
    expect(await (await client.agents.execute({ agent: 'writer', user_request: 'x', stream: true })).finalText()).toBe('AB');
  });

  it('a bad event is 422 invalid_params naming it', async () => {
    const bad = await fetch(`${listener.url}/_oz/stubs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'tokn', data: {} }] } }),
    });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/answer\.events\[0\]/);
  });
});
