import { createOzServer } from '../../src/testing/index.js';
const server = createOzServer();
server.stubs.add({
  operationId: 'executeTool',
  respond: () => ({
    status: 200,
    body: { ok: true, content: 'x', execution_id: 'exe_TypedStub000000000000000007', request_id: 'req_TypedStub000000000000000007' },
  }),
});
