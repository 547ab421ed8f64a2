// Typed stubs as a user writes them, imported from `oz-sdk/testing`: `npm run typecheck` checks this file against
// the sources (tsconfig's paths), and test/types/crossVersion.test.ts against the emitted declarations under
// TypeScript 5.0, the repository's 5.9 and the newest 7.x. Each `@ts-expect-error` line must stay an error: one
// that compiled would fail the check. Never run (the type check is the test).
import { createOzServer, type OperationAnswer, type StubSpec } from 'oz-sdk/testing';

const server = createOzServer();
const result = { ok: true, content: 'x', execution_id: 'exe_TypedStub000000000000000007', request_id: 'req_TypedStub000000000000000007' };

export async function obviousCode(): Promise<void> {
  // A literal status from `respond`, without `as const` (issue 55's first snippet).
  server.stubs.add({
    operationId: 'executeTool',
    respond: () => ({
      status: 200,
      body: { ok: true, content: 'x', execution_id: 'exe_TypedStub000000000000000007', request_id: 'req_TypedStub000000000000000007' },
    }),
  });
  // A value typed `StubSpec`, 1.0.0's exported type, is what `stubs.add` takes (the second snippet).
  const stub: StubSpec = {
    operationId: 'getCompanyItem',
    match: { path: { id: 'itm_x' } },
    answer: { status: 404, body: { error: { code: 'item_not_found', message: 'No item itm_x.' } } },
  };
  server.stubs.add(stub);
  const stubs: StubSpec[] = [stub, { operationId: 'listTools', answer: { status: 200, body: { data: [], next_cursor: null } } }];
  for (const each of stubs) server.stubs.add(each);
  // `respond` async, with the request, and returning nothing to fall through to the server's own answer.
  server.stubs.add({ operationId: 'executeTool', respond: async () => ({ status: 200, body: result }) });
  server.stubs.add({ operationId: 'executeTool', respond: async (request) => (request.path.tool === 'echo' ? { status: 200, body: result } : undefined) });
  server.stubs.add({
    operationId: 'executeTool',
    respond: (request) =>
      request.body.text === 'boom'
        ? { status: 429, body: { error: { code: 'rate_limited', message: 'Slow down.' } }, headers: { 'retry-after': '1' } }
        : undefined,
  });
  server.stubs.add({ operationId: 'executeTool', respond: () => undefined });
  server.stubs.add({ operationId: 'executeTool', respond: () => {} });
  // An answer declared apart, typed by the operation.
  const declared: OperationAnswer<'executeTool'> = { status: 200, body: result };
  server.stubs.add({
    operationId: 'executeTool',
    answers: [declared, { status: 500, body: { error: { code: 'internal_error', message: 'Try again.' } } }],
    then: 'fallthrough',
  });
  // An unchecked stub takes any answer.
  server.stubs.add({ operationId: 'executeTool', unchecked: true, answer: { status: 299, body: { anything: true } } });
}

export function wrongCode(): void {
  // @ts-expect-error executeTool declares no 201
  server.stubs.add({ operationId: 'executeTool', respond: () => ({ status: 201, body: result }) });
  // @ts-expect-error executeTool declares no 201 (a fixed answer)
  server.stubs.add({ operationId: 'executeTool', answer: { status: 201, body: result } });
  // @ts-expect-error content is a string
  server.stubs.add({ operationId: 'executeTool', respond: () => ({ status: 200, body: { ...result, content: 42 } }) });
  // @ts-expect-error content is a string (async)
  server.stubs.add({ operationId: 'executeTool', respond: async () => ({ status: 200, body: { ...result, content: 42 } }) });
  // @ts-expect-error a status getCompanyItem does not declare, in a value typed StubSpec
  const stub: StubSpec = { operationId: 'getCompanyItem', answer: { status: 418, body: { error: { code: 'item_not_found', message: 'x' } } } };
  void stub;
}

// 1.0.0's docs (docs/stubs.md of that release): its stubs, as written then.
export async function releasedDocs(real: { readonly id: string; readonly title: string }): Promise<void> {
  server.stubs.add({
    operationId: 'executeTool',
    respond: ({ path, body, account }) =>
      path.tool === 'echo' && body.text === 'boom' && account === 'demo'
        ? { status: 429, body: { error: { code: 'rate_limited', message: 'Slow down.' } }, headers: { 'retry-after': '1' } }
        : undefined,
  });
  server.stubs.add({
    operationId: 'executeAgent',
    answer: {
      status: 200,
      events: [
        { event: 'token', data: { delta: 'Hel' } },
        { event: 'token', data: { delta: 'lo' }, delayMs: 20 },
        { event: 'error', data: { error: { code: 'approval_required', message: 'Needs a human.' } } },
      ],
    },
  });
  server.stubs.add({
    operationId: 'executeTool',
    answers: [
      { status: 500, body: { error: { code: 'internal_error', message: 'Try again.' } } },
      { status: 200, body: { ...result, content: 'after a retry' } },
    ],
  });
  server.stubs.add({
    operationId: 'getCompanyItem',
    match: { path: { campus: 'acme', id: real.id } },
    answer: { status: 404, body: { error: { code: 'item_not_found', message: `No item ${real.title}.` } } },
    times: 1,
  });
}
