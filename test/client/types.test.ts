// Type tests of the client's public types: `tsc --noEmit -p .` (part of `npm test`) fails when an expectTypeOf
// assertion does not hold or a line marked @ts-expect-error compiles. The calls sit in functions that never run.
import { describe, expectTypeOf, it } from 'vitest';
import {
  Oz,
  type APIPromise,
  type OperationError,
  type WaitError,
  OzAPIError,
  DuplicateExecutionIdError,
  InvalidParamsError,
  LegacyKeyError,
  ConnectionRequiredError,
  CredentialRequiredError,
  RateLimitedError,
  Http429Error,
  ToolNotFoundError,
  Page,
  PagePromise,
  Stream,
  type AsyncPointer,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ConnectInfo,
  type ExecuteStreamEvent,
  type Execution,
  type ExecutionResult,
  type Format,
  type Item,
  type ItemKind,
  type RateLimitInfo,
  type Tool,
  type ToolExecuteRequest,
  type Waitable,
  type WithResponse,
  type WorkflowExecuteRequest,
} from '../../src/index.js';

function optionCalls(client: Oz, anyFormat: Format) {
  // @ts-expect-error: an unknown body format
  void client.tools.execute('echo', {}, { bodyFormat: 'xml' });
  // @ts-expect-error: an unknown format is a compile error
  void client.tools.execute('echo', {}, { format: 'xml' });
  // @ts-expect-error: only bearer and x-api-key
  void client.tools.execute('echo', {}, { authHeader: 'basic' });
  // @ts-expect-error: list routes walk pages on json and yaml only
  void client.tools.list({}, { format: 'markdown' });
  // @ts-expect-error: JSON-only routes take no format
  void client.models.list({ format: 'yaml' });
  // @ts-expect-error: a misspelt client option
  void new Oz({ apikey: 'ozk_x' });
  // @ts-expect-error: the key is never readable from the client
  void client.apiKey;

  return {
    json: client.tools.execute('echo', { text: 'x' }, { format: 'json' }),
    yaml: client.tools.execute('echo', { text: 'x' }, { format: 'yaml' }),
    markdown: client.tools.execute('echo', { text: 'x' }, { format: 'markdown', idempotencyKey: 'k' }),
    text: client.tools.execute('echo', { text: 'x' }, { format: 'text', signal: AbortSignal.timeout(1) }),
    none: client.tools.execute('echo', { text: 'x' }, { timeout: 5, maxRetries: 0, apiKey: 'ozk_y', authHeader: 'x-api-key' }),
    union: client.tools.execute('echo', { text: 'x' }, { format: anyFormat }),
    pointerMarkdown: client.workflows.execute({ workflow: { name: 'w', tasks: [] }, async: true }, { format: 'markdown' }),
    pointerYaml: client.agents.execute({ agent: 'writer', async: true }, { format: 'yaml' }),
    maybePointer: client.tools.execute('echo', { text: 'x', async: Math.random() > 0.5 }, { format: 'text' }),
    itemText: client.companies.items.get('acme', 'itm_1', { format: 'text' }),
    itemYamlBody: client.companies.items.create('acme', { building: 'hq', title: 't' }, { bodyFormat: 'yaml' }),
    withResponse: client.tools.execute('echo', { text: 'x' }, { format: 'markdown' }).withResponse(),
    copy: client.withOptions({ maxRetries: 0, logLevel: 'debug' }),
  };
}

function schemaCalls(client: Oz) {
  // A missing required field of a request body is a compile error.
  // @ts-expect-error: `title` is required
  void client.companies.items.create('acme', { building: 'hq' });
  // @ts-expect-error: `building` is required
  void client.companies.items.create('acme', { title: 'x' });
  // @ts-expect-error: `kind` must be one of the enum's values
  void client.companies.items.create('acme', { building: 'hq', title: 'x', kind: 'chore' });
  // @ts-expect-error: `priority` is an integer, not a string
  void client.companies.items.create('acme', { building: 'hq', title: 'x', priority: 'high' });
  // @ts-expect-error: a path parameter is required
  void client.tools.execute({ params: { text: 'hi' } });
  // @ts-expect-error: `model` is required on chat completions
  void client.chat.completions.create({ messages: [{ role: 'user', content: 'hi' }] });
  // @ts-expect-error: the wire is chosen with the `format` option, which types the result, not in the body
  void client.tools.execute('echo', { text: 'hi', format: 'text' });

  return {
    item: client.companies.items.create('acme', { building: 'hq', title: 'Ship it', kind: 'feature' }),
    itemMarkdown: client.companies.items.create('acme', { building: 'hq', title: 'x' }, { format: 'markdown' }),
    itemYaml: client.companies.items.create('acme', { building: 'hq', title: 'x' }, { format: 'yaml' }),
    result: client.tools.execute('echo', { params: { text: 'hi' } }),
    pointer: client.tools.execute('slow', { ms: 10, async: true }),
    pointerText: client.tools.execute('slow', { ms: 10, async: true }, { format: 'text' }),
    scheduleRun: client.schedules.run('sch_1', { format: 'markdown' }),
    agentStream: client.agents.execute({ agent: 'writer', user_request: 'hi', stream: true }),
    workflowStream: client.workflows.executeStream({ workflow: { name: 'w', tasks: [{ id: 'a', type: 'task', agent: 'writer' }] } }),
    items: client.companies.items.list('acme', { building: 'hq' }),
    chat: client.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hi' }] }),
    chatStream: client.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hi' }], stream: true }),
  };
}

export function exportedBodyTypes(client: Oz, body: WorkflowExecuteRequest, tool: ToolExecuteRequest) {
  // The exported request-body types are exactly what the methods take.
  void client.workflows.execute(body);
  void client.tools.execute('echo', tool);
  // A field with a default in openapi.json (`enabled`) stays optional in request bodies.
  void client.schedules.create({ name: 'nightly', cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' } });
}

async function streamCalls(client: Oz) {
  const stream = await client.agents.execute({ agent: 'writer', user_request: 'x', stream: true });
  const chat = await client.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'x' }], stream: true });
  // @ts-expect-error: streams ignore the wire choice, so they take no format
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

describe('the types of calls', () => {
  it('type results per wire and per option', () => {
    type R = ReturnType<typeof optionCalls>;
    expectTypeOf<Awaited<R['json']>>().toEqualTypeOf<ExecutionResult>();
    expectTypeOf<Awaited<R['yaml']>>().toEqualTypeOf<ExecutionResult>();
    expectTypeOf<Awaited<R['markdown']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['text']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['none']>>().toEqualTypeOf<ExecutionResult>();
    expectTypeOf<Awaited<R['union']>>().toEqualTypeOf<ExecutionResult | string>();
    expectTypeOf<Awaited<R['pointerMarkdown']>>().toEqualTypeOf<Waitable<AsyncPointer, WaitError>>();
    expectTypeOf<Awaited<R['pointerYaml']>>().toEqualTypeOf<Waitable<AsyncPointer, WaitError>>();
    expectTypeOf<Awaited<R['maybePointer']>>().toEqualTypeOf<string | Waitable<AsyncPointer, WaitError>>();
    expectTypeOf<Awaited<R['itemText']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['itemYamlBody']>>().toEqualTypeOf<Item>();
    expectTypeOf<Awaited<R['withResponse']>>().toEqualTypeOf<WithResponse<string>>();
    expectTypeOf<Awaited<R['withResponse']>['rateLimit']>().toEqualTypeOf<RateLimitInfo>();
    expectTypeOf<RateLimitInfo['remaining']>().toEqualTypeOf<number | null>();
    expectTypeOf<R['copy']>().toEqualTypeOf<Oz>();
  });

  it('type bodies and results from openapi.json', () => {
    type R = ReturnType<typeof schemaCalls>;
    expectTypeOf<Awaited<R['item']>>().toEqualTypeOf<Item>();
    expectTypeOf<Item['step']>().toEqualTypeOf<string>();
    expectTypeOf<Item['kind']>().toEqualTypeOf<ItemKind>();
    expectTypeOf<ItemKind>().toEqualTypeOf<'feature' | 'bugfix' | 'docs' | 'research' | 'content' | 'task'>();
    expectTypeOf<Item['tier']>().toEqualTypeOf<string | null>();
    expectTypeOf<Awaited<R['itemMarkdown']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['itemYaml']>>().toEqualTypeOf<Item>();
    expectTypeOf<Awaited<R['result']>>().toEqualTypeOf<ExecutionResult>();
    expectTypeOf<Awaited<R['pointer']>>().toEqualTypeOf<Waitable<AsyncPointer, WaitError>>();
    expectTypeOf<Awaited<R['pointerText']>>().toEqualTypeOf<Waitable<AsyncPointer, WaitError>>();
    expectTypeOf<Awaited<R['scheduleRun']>>().toEqualTypeOf<Waitable<AsyncPointer, WaitError>>();
    expectTypeOf<Awaited<R['agentStream']>>().toEqualTypeOf<Stream<ExecuteStreamEvent>>();
    expectTypeOf<Awaited<R['workflowStream']>>().toEqualTypeOf<Stream<ExecuteStreamEvent>>();
    expectTypeOf<R['items']>().toEqualTypeOf<PagePromise<Item, OperationError<'listCompanyItems'>>>();
    expectTypeOf<Awaited<R['chat']>>().toEqualTypeOf<ChatCompletion>();
    expectTypeOf<Awaited<R['chatStream']>>().toEqualTypeOf<Stream<ChatCompletionChunk>>();
  });

  it('type streams, waits and pages', () => {
    type Calls = Awaited<ReturnType<typeof streamCalls>>;
    expectTypeOf<Calls['stream']>().toEqualTypeOf<Stream<ExecuteStreamEvent>>();
    expectTypeOf<Calls['chat']>().toEqualTypeOf<Stream<ChatCompletionChunk>>();
    expectTypeOf<Calls['result']>().toEqualTypeOf<Promise<ExecutionResult>>();
    expectTypeOf<Calls['chatResult']>().toEqualTypeOf<Promise<never>>();
    expectTypeOf<Calls['text']>().toEqualTypeOf<Promise<string>>();
    expectTypeOf<Calls['deltas']>().toEqualTypeOf<AsyncGenerator<string, void, undefined>>();
    expectTypeOf<Calls['tee']>().toEqualTypeOf<[Stream<ExecuteStreamEvent>, Stream<ExecuteStreamEvent>]>();
    expectTypeOf<Calls['readable']>().toEqualTypeOf<ReadableStream<Uint8Array>>();
    expectTypeOf<Calls['waited']>().toEqualTypeOf<APIPromise<ExecutionResult, WaitError>>();
    expectTypeOf<Calls['waitedById']>().toEqualTypeOf<APIPromise<ExecutionResult, WaitError>>();
    expectTypeOf<Calls['page']>().toEqualTypeOf<PagePromise<Tool, OperationError<'listTools'>>>();
    expectTypeOf<Calls['awaitedPage']>().toEqualTypeOf<Page<Tool>>();
    expectTypeOf<Calls['items']>().toEqualTypeOf<AsyncGenerator<Tool, void, undefined>>();
    expectTypeOf<Parameters<NonNullable<Parameters<Oz['executions']['wait']>[1]>['onProgress'] & {}>[0]>().toEqualTypeOf<Execution>();
  });
});

describe('the types of errors', () => {
  it('allow branching by class and by code', () => {
    expectTypeOf<DuplicateExecutionIdError['code']>().toEqualTypeOf<'duplicate_execution_id'>();
    // Fields a code always carries are typed present on its class: no `!` needed.
    expectTypeOf<InvalidParamsError['missing']>().toEqualTypeOf<string[]>();
    expectTypeOf<ConnectionRequiredError['connect']>().toEqualTypeOf<ConnectInfo>();
    expectTypeOf<CredentialRequiredError['connect']>().toEqualTypeOf<ConnectInfo>();
    expectTypeOf<OzAPIError['missing']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<OzAPIError['connect']>().toEqualTypeOf<ConnectInfo | undefined>();
    expectTypeOf<ConnectInfo['method']>().toEqualTypeOf<'oauth' | 'api_key' | 'wallet'>();
    expectTypeOf<RateLimitedError>().toMatchTypeOf<Http429Error>();
    expectTypeOf<ToolNotFoundError['code']>().toEqualTypeOf<'tool_not_found'>();
    expectTypeOf<LegacyKeyError['keyPlane']>().toEqualTypeOf<'models' | 'proxy' | 'unknown'>();
    expectTypeOf<LegacyKeyError>().toMatchTypeOf<OzAPIError>();
  });
});
