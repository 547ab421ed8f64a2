// Type tests: `tsc --noEmit` (part of `npm test`) fails when a line marked @ts-expect-error compiles, or when an
// expectTypeOf assertion does not hold. The calls sit in a function that never runs.
import { describe, expectTypeOf, it } from 'vitest';
import type { AsyncPointer, ExecutionResult, Item, ItemKind, PagePromise, Stream, ExecuteStreamEvent, ChatCompletion, ChatCompletionChunk, Waitable, WorkflowExecuteRequest, ToolExecuteRequest } from '../../src/index.js';
import { Oz } from '../../src/index.js';

function calls(client: Oz) {
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
  // @ts-expect-error: an unknown format is a compile error
  void client.tools.execute('echo', {}, { format: 'xml' });
  // @ts-expect-error: streams ignore the wire, so they take no format
  void client.workflows.executeStream({ workflow: { name: 'w', tasks: [] } }, { format: 'yaml' });
  // @ts-expect-error: `model` is required on chat completions
  void client.chat.completions.create({ messages: [{ role: 'user', content: 'hi' }] });

  return {
    item: client.companies.items.create('acme', { building: 'hq', title: 'Ship it', kind: 'feature' }),
    itemMarkdown: client.companies.items.create('acme', { building: 'hq', title: 'x' }, { format: 'markdown' }),
    itemYaml: client.companies.items.create('acme', { building: 'hq', title: 'x' }, { format: 'yaml' }),
    result: client.tools.execute('echo', { params: { text: 'hi' } }),
    text: client.tools.execute('echo', { text: 'hi' }, { format: 'text' }),
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

describe('types', () => {
  it('types results from openapi.json', () => {
    type R = ReturnType<typeof calls>;
    expectTypeOf<Awaited<R['item']>>().toEqualTypeOf<Item>();
    expectTypeOf<Item['step']>().toEqualTypeOf<string>();
    expectTypeOf<Item['kind']>().toEqualTypeOf<ItemKind>();
    expectTypeOf<ItemKind>().toEqualTypeOf<'feature' | 'bugfix' | 'docs' | 'research' | 'content' | 'task'>();
    expectTypeOf<Item['tier']>().toEqualTypeOf<string | null>();
    expectTypeOf<Awaited<R['itemMarkdown']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['itemYaml']>>().toEqualTypeOf<Item>();
    expectTypeOf<Awaited<R['result']>>().toEqualTypeOf<ExecutionResult>();
    expectTypeOf<Awaited<R['text']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['pointer']>>().toEqualTypeOf<Waitable<AsyncPointer>>();
    expectTypeOf<Awaited<R['pointerText']>>().toEqualTypeOf<Waitable<AsyncPointer>>();
    expectTypeOf<Awaited<R['scheduleRun']>>().toEqualTypeOf<Waitable<AsyncPointer>>();
    expectTypeOf<Awaited<R['agentStream']>>().toEqualTypeOf<Stream<ExecuteStreamEvent>>();
    expectTypeOf<Awaited<R['workflowStream']>>().toEqualTypeOf<Stream<ExecuteStreamEvent>>();
    expectTypeOf<R['items']>().toEqualTypeOf<PagePromise<Item>>();
    expectTypeOf<Awaited<R['chat']>>().toEqualTypeOf<ChatCompletion>();
    expectTypeOf<Awaited<R['chatStream']>>().toEqualTypeOf<Stream<ChatCompletionChunk>>();
  });
});

export function bodyFormat(client: Oz) {
  // @ts-expect-error: the wire is chosen with the `format` option, which types the result, not in the body
  void client.tools.execute('echo', { text: 'hi', format: 'text' });
}

export function exportedBodyTypes(client: Oz, body: WorkflowExecuteRequest, tool: ToolExecuteRequest) {
  // The exported request-body types are exactly what the methods take.
  void client.workflows.execute(body);
  void client.tools.execute('echo', tool);
  // A field with a default in openapi.json (`enabled`) stays optional in request bodies.
  void client.schedules.create({ name: 'nightly', cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' } });
}
