// What TypeScript 5.0 lets through and 5.1 onwards refuses: a field the answer's body does not have (5.0 checks
// excess properties of a nested object against every member of the operations' union, so it misses this one;
// a wrong type of a known field is refused by 5.0 too). Checked like stubs.consumer.ts by `npm run typecheck` and
// by test/types/crossVersion.test.ts under each TypeScript from 5.1.
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
const result = { ok: true, content: 'x', execution_id: 'exe_TypedStub000000000000000007', request_id: 'req_TypedStub000000000000000007' };

export function extraField(): void {
  // @ts-expect-error a body field the answer does not have
  server.stubs.add({ operationId: 'executeTool', answer: { status: 200, body: { ...result, colour: 'red' } } });
}
