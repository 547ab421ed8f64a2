// Type tests of streams, waiting and paging: `tsc --noEmit -p .` fails when an expectTypeOf assertion does not
// hold or a line marked @ts-expect-error compiles. The calls sit in a function that never runs.
import { describe, expectTypeOf, it } from 'vitest';
import {
  Oz,
  Page,
  PagePromise,
  Stream,
  type AsyncPointer,
  type ChatCompletionChunk,
  type ExecuteStreamEvent,
  type Execution,
  type ExecutionResult,
  type Tool,
} from '../../src/index.js';

async function calls(client: Oz) {
  const stream = await client.agents.execute({ agent: 'writer', user_request: 'x', stream: true });
  const chat = await client.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'x' }], stream: true });
  // @ts-expect-error: streams ignore the wire choice
  void client.workflows.executeStream({ workflow: { name: 'w', tasks: [] } }, { format: 'yaml' });
  // @ts-expect-error: the wait's options are its own
  void client.executions.wait('exe_1', { format: 'json' });
  // @ts-expect-error: a pointer needs an execution_id
  void client.executions.wait({ id: 'exe_1' });
  const pointer: AsyncPointer = await client.tools.execute('echo', { text: 'x', async: true });
  return {
    stream,
    chat,
    result: stream.finalResult(),
    chatResult: chat.finalResult(),
    text: stream.finalText(),
    deltas: stream.textDeltas(),
    tee: stream.tee(),
    readable: stream.toReadableStream(),
    waited: client.executions.wait(pointer, { interval: 100, timeout: 1000, signal: AbortSignal.timeout(1), onProgress: (record) => record }),
    waitedById: client.executions.wait('exe_1'),
    page: client.tools.list({ limit: 5 }),
    awaitedPage: await client.tools.list(),
    items: client.tools.list()[Symbol.asyncIterator](),
  };
}

describe('types of streams, waits and pages', () => {
  it('holds', () => {
    type Calls = Awaited<ReturnType<typeof calls>>;
    expectTypeOf<Calls['stream']>().toEqualTypeOf<Stream<ExecuteStreamEvent>>();
    expectTypeOf<Calls['chat']>().toEqualTypeOf<Stream<ChatCompletionChunk>>();
    expectTypeOf<Calls['result']>().toEqualTypeOf<Promise<ExecutionResult>>();
    expectTypeOf<Calls['chatResult']>().toEqualTypeOf<Promise<never>>();
    expectTypeOf<Calls['text']>().toEqualTypeOf<Promise<string>>();
    expectTypeOf<Calls['deltas']>().toEqualTypeOf<AsyncGenerator<string, void, undefined>>();
    expectTypeOf<Calls['tee']>().toEqualTypeOf<[Stream<ExecuteStreamEvent>, Stream<ExecuteStreamEvent>]>();
    expectTypeOf<Calls['readable']>().toEqualTypeOf<ReadableStream<Uint8Array>>();
    expectTypeOf<Calls['waited']>().toEqualTypeOf<Promise<ExecutionResult>>();
    expectTypeOf<Calls['waitedById']>().toEqualTypeOf<Promise<ExecutionResult>>();
    expectTypeOf<Calls['page']>().toEqualTypeOf<PagePromise<Tool>>();
    expectTypeOf<Calls['awaitedPage']>().toEqualTypeOf<Page<Tool>>();
    expectTypeOf<Calls['items']>().toEqualTypeOf<AsyncGenerator<Tool, void, undefined>>();
    expectTypeOf<Parameters<NonNullable<Parameters<Oz['executions']['wait']>[1]>['onProgress'] & {}>[0]>().toEqualTypeOf<Execution>();
    expectTypeOf(calls).toBeFunction();
  });
});
