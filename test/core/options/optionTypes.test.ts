// Type tests of details new users tripped on: `tsc --noEmit -p .` fails when an assertion does not hold. The calls
// sit in a function that never runs.
import { describe, expectTypeOf, it } from 'vitest';
import {
  Oz,
  type AsyncPointer,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ExecuteStreamEvent,
  type ExecutionResult,
  type RequestOptions,
  type Stream,
  type Waitable,
  type WaitError,
} from '../../../src/index.js';

function calls(client: Oz, streamed: boolean) {
  // A shared options object annotated with the wide type: its `format` may be any wire.
  const shared: RequestOptions = { format: 'text', timeout: 5_000 };
  const literal = { format: 'text' } as const;
  return {
    shared: client.tools.execute('echo', { text: 'x' }, shared),
    sharedGet: client.tools.get('echo', shared),
    literal: client.tools.execute('echo', { text: 'x' }, literal),
    noOptions: client.tools.execute('echo', { text: 'x' }),
    // `stream` held in a variable.
    agentMaybeStream: client.agents.execute({ agent: 'writer', user_request: 'x', stream: streamed }),
    agentMaybeStreamShared: client.agents.execute({ agent: 'writer', stream: streamed }, shared),
    chatMaybeStream: client.chat.completions.create({ model: 'oz-chat', messages: [], stream: streamed }),
    agentStream: client.agents.execute({ agent: 'writer', stream: true }, { signal: AbortSignal.timeout(1) }),
  };
}

function perCall(client: Oz) {
  // Per call: the client's options of the same names, `headers` for `defaultHeaders`, `query` for `defaultQuery`.
  void client.tools.get('echo', { fetchOptions: { keepalive: true }, query: { x: 1 }, headers: { 'x-a': null }, baseURL: 'http://h' });
  // @ts-expect-error: mcpURL belongs to a client (withOptions), as the README says
  void client.tools.get('echo', { mcpURL: 'http://mcp/v1' });
  // @ts-expect-error: per call, default headers are `headers`
  void client.tools.get('echo', { defaultHeaders: { 'x-a': 'b' } });
  // @ts-expect-error: a query value is a string, number or boolean
  void client.tools.get('echo', { query: { x: { nested: true } } });
  return client.withOptions({ mcpURL: 'http://mcp/v1', defaultQuery: { tenant: 'a' }, fetchOptions: { dispatcher: {} } });
}

describe('option types', () => {
  it('per-call options are what the README lists', () => {
    expectTypeOf<ReturnType<typeof perCall>>().toEqualTypeOf<Oz>();
  });

  it('never types a string answer as the envelope', () => {
    type R = ReturnType<typeof calls>;
    expectTypeOf<Awaited<R['shared']>>().toEqualTypeOf<ExecutionResult | string>();
    expectTypeOf<Awaited<R['literal']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['noOptions']>>().toEqualTypeOf<ExecutionResult>();
    // @ts-expect-error: the shared object may have asked for text
    expectTypeOf<Awaited<R['sharedGet']>>().toEqualTypeOf<{ name: string }>();
  });

  it('accepts `stream: boolean` and answers either kind', () => {
    type R = ReturnType<typeof calls>;
    expectTypeOf<Awaited<R['agentMaybeStream']>>().toEqualTypeOf<Stream<ExecuteStreamEvent> | ExecutionResult | Waitable<AsyncPointer, WaitError>>();
    expectTypeOf<Awaited<R['agentMaybeStreamShared']>>().toEqualTypeOf<
      Stream<ExecuteStreamEvent> | ExecutionResult | string | Waitable<AsyncPointer, WaitError>
    >();
    expectTypeOf<Awaited<R['chatMaybeStream']>>().toEqualTypeOf<Stream<ChatCompletionChunk> | ChatCompletion>();
    expectTypeOf<Awaited<R['agentStream']>>().toEqualTypeOf<Stream<ExecuteStreamEvent>>();
  });
});
