/**
 * Testing code that calls Oz with undici's MockAgent: give the client the agent as `fetchOptions.dispatcher`
 * (Node's `fetch` takes an undici dispatcher), and each call is answered by the interceptors you declare. Only
 * this client is affected; `setGlobalDispatcher(agent)` would answer every `fetch` of the process instead.
 *
 *   npx vitest run examples/testing/mockAgent.test.ts
 */
// #region mock-agent
import { MockAgent } from 'undici';
import { afterEach, expect, it } from 'vitest';
import { Oz, ToolNotFoundError } from 'oz-sdk';

const agent = new MockAgent();
agent.disableNetConnect(); // a request no interceptor answers fails instead of leaving the machine
const oz = new Oz({ baseURL: 'https://oz.example.test', apiKey: 'ozk_0123456789abcdefghijklmnopqrstuv', fetchOptions: { dispatcher: agent } });
const service = agent.get('https://oz.example.test');

afterEach(() => agent.assertNoPendingInterceptors()); // every interceptor declared by the test was used

it('answers a tool execution', async () => {
  service
    .intercept({ path: '/v1/tools/echo/execute', method: 'POST', body: JSON.stringify({ text: 'hi' }) })
    .reply(200, { ok: true, content: 'hi', execution_id: 'exe_1', request_id: 'req_1' }, { headers: { 'content-type': 'application/json' } });

  const result = await oz.tools.execute('echo', { text: 'hi' });
  expect(result.content).toBe('hi');
});

it('turns an error envelope into its typed error', async () => {
  service
    .intercept({ path: '/v1/tools/nope/execute', method: 'POST' })
    .reply(
      404,
      { error: { code: 'tool_not_found', message: 'No tool nope.', request_id: 'req_3' } },
      { headers: { 'content-type': 'application/json', 'x-error-code': 'tool_not_found' } },
    );

  const error = await oz.tools.execute('nope', { text: 'hi' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ToolNotFoundError);
  expect(error).toMatchObject({ status: 404, code: 'tool_not_found' });
});
// #endregion
