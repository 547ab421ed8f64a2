/**
 * Stubs typed by their operationId (checked by `npm run typecheck`, which `npm test` runs): a wrong body field, a
 * wrong status's body, a wrong event name or a wrong parameter name does not compile; the right ones do, on every
 * surface that adds stubs (the server, a session, `OzControls`). The `@ts-expect-error` lines are the proof: an
 * error that stopped happening fails the type check.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { connectOzMock, createOzServer, type OzControls, type StubSpec } from '../../../../src/testing/index.js';
import type { OperationStubRequest } from '../../../../src/testing/pipeline/stubs/operationStub.js';

const server = createOzServer();
const result = { ok: true, content: 'typed', execution_id: 'exe_TypTypTypTypTypTypTypTypTypTypTy', request_id: 'req_t' } as const;

/** Stubs of the right types: they compile, and the server arms them. */
async function typedStubs(stubs: OzControls['stubs']) {
  await stubs.add({ operationId: 'executeTool', match: { path: { tool: 'echo' }, body: { text: 'hi' } }, answer: { status: 200, body: result } });
  await stubs.add({ operationId: 'executeTool', answer: { status: 404, body: { error: { code: 'tool_not_found', message: 'No tool.' } } } });
  await stubs.add({
    operationId: 'executeAgent',
    answer: {
      status: 200,
      events: [
        { event: 'token', data: { delta: 'Hel' } },
        { event: 'result', data: result },
      ],
    },
  });
  await stubs.add({ operationId: 'listTools', answers: [{ status: 200, body: { data: [], next_cursor: null } }], then: 'fallthrough' });
  // unchecked: any answer, to test a client's defences
  await stubs.add({ operationId: 'executeTool', answer: { status: 200, body: { anything: true } }, unchecked: true });
  // a value typed StubSpec (declared apart, as 1.0.0's docs typed a stub)
  const spec: StubSpec = {
    operationId: 'getCompanyItem',
    match: { path: { id: 'itm_x' } },
    answer: { status: 404, body: { error: { code: 'item_not_found', message: 'No item itm_x.' } } },
  };
  await stubs.add(spec);
}

/** Stubs of the wrong types: none compiles (never called; the type check is the test). */
export async function wronglyTypedStubs(stubs: OzControls['stubs']) {
  // @ts-expect-error a body field the operation's answer does not have
  await stubs.add({
    operationId: 'executeTool',
    answer: { status: 200, body: { ok: true, content: 'x', execution_id: 'exe_1', request_id: 'req_1', colour: 'red' } },
  });
  // @ts-expect-error a 404's body is the error envelope, not the result
  await stubs.add({ operationId: 'executeTool', answer: { status: 404, body: result } });
  // @ts-expect-error a status the operation never answers
  await stubs.add({ operationId: 'executeTool', answer: { status: 418, body: result } });
  // @ts-expect-error an event name the stream does not have
  await stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'tokn', data: { delta: 'x' } }] } });
  // @ts-expect-error a token event's delta is a string
  await stubs.add({ operationId: 'executeAgent', answer: { status: 200, events: [{ event: 'token', data: { delta: 1 } }] } });
  // @ts-expect-error an operation that never streams takes no events
  await stubs.add({ operationId: 'listTools', answer: { status: 200, events: [{ event: 'token', data: { delta: 'x' } }] } });
  // @ts-expect-error a path parameter the operation does not have
  await stubs.add({ operationId: 'executeTool', match: { path: { agent: 'writer' } }, answer: { status: 200, body: result } });
  // @ts-expect-error a body field the operation's request does not have
  await stubs.add({
    operationId: 'createCompanyItem',
    match: { body: { colour: 'red' } },
    answer: { status: 400, body: { error: { code: 'invalid_params', message: 'x' } } },
  });
  // @ts-expect-error an operationId openapi.json does not have
  await stubs.add({ operationId: 'executeTools', answer: { status: 200, body: result } });
}

describe('typed stubs', () => {
  it('respond gets the operation own request and must answer the operation own answers', () => {
    server.stubs.add({
      operationId: 'executeTool',
      respond: (request) => {
        expectTypeOf(request).toEqualTypeOf<OperationStubRequest<'executeTool'>>();
        expectTypeOf(request.path.tool).toEqualTypeOf<string>();
        return request.body.text === 'boom' ? { status: 429, body: { error: { code: 'rate_limited', message: 'Slow down.' } } } : undefined;
      },
    });
    // @ts-expect-error respond must answer what the operation answers
    server.stubs.add({ operationId: 'executeTool', respond: () => ({ status: 200, body: { content: 1 } }) });
    server.stubs.clear();
  });

  it('the typed stubs are the stubs the server takes at run time, on each surface', async () => {
    const session = server.session();
    const listener = await server.listen();
    const remote = connectOzMock({ url: listener.url, adminToken: server.adminToken! });
    for (const stubs of [server.stubs, session.stubs, remote.stubs]) {
      await typedStubs(stubs);
      expect((await stubs.list()).map((s) => s.operationId)).toEqual([
        'executeTool',
        'executeTool',
        'executeAgent',
        'listTools',
        'executeTool',
        'getCompanyItem',
      ]);
      await stubs.clear();
    }
    await session.close();
    await server.close();
  });
});
