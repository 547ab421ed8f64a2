/**
 * One run of requests, the same in process and against a spawned oz-mock, so their coverage reports can be held
 * to each other: answers of the server itself (a success, a stream, 401, 404, 424), of a fault, of a stub, of an
 * unchecked stub (an undeclared answer), and a dropped connection.
 */
type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Where the run goes: the API's URL, its key, the admin token, and the fetch to send with. */
export interface RunTarget {
  readonly url: string;
  readonly apiKey: string;
  readonly adminToken: string;
  readonly fetch: Fetch;
}

async function control(t: RunTarget, method: string, path: string, body: unknown): Promise<void> {
  const res = await t.fetch(`${t.url}/_oz${path}`, {
    method,
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} /_oz${path}: ${res.status} ${await res.text()}`);
}

async function api(t: RunTarget, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<number> {
  const res = await t.fetch(`${t.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.text();
  return res.status;
}

/** The run: its requests in order; answers the statuses they got (`0`: the connection was dropped). */
export async function sendRun(t: RunTarget): Promise<number[]> {
  const statuses: number[] = [];
  statuses.push(await api(t, 'GET', '/v1/tools'));
  statuses.push(await api(t, 'GET', '/v1/tools'));
  statuses.push(await api(t, 'POST', '/v1/tools/crm_lookup/execute', { query: 'acme' }));
  statuses.push(await api(t, 'POST', '/v1/tools/echo/execute', { text: 'hi' }));
  statuses.push(await api(t, 'POST', '/v1/execute', { agent: 'writer', user_request: 'a haiku', stream: true }, { accept: 'text/event-stream' }));
  statuses.push(await api(t, 'GET', '/v1/tools/no_such_tool'));
  statuses.push(await api(t, 'GET', '/v1/agents', undefined, { authorization: 'Bearer ozk_00000000000000000000000000000000' }));
  await control(t, 'POST', '/faults', { operationId: 'listTools', type: 'error', status: 429, code: 'rate_limited', times: 1 });
  statuses.push(await api(t, 'GET', '/v1/tools'));
  await control(t, 'POST', '/stubs', {
    operationId: 'getTool',
    answer: { status: 404, body: { error: { code: 'tool_not_found', message: 'gone' } } },
    times: 1,
  });
  statuses.push(await api(t, 'GET', '/v1/tools/echo'));
  await control(t, 'POST', '/stubs', { operationId: 'getAgent', answer: { status: 418, body: { teapot: true } }, unchecked: true, times: 1 });
  statuses.push(await api(t, 'GET', '/v1/agents/writer'));
  await control(t, 'POST', '/faults', { operationId: 'getWorkflow', type: 'drop', times: 1 });
  statuses.push(await api(t, 'GET', '/v1/workflows/any').catch(() => 0));
  return statuses;
}

/** What the run gets, request by request. */
export const RUN_STATUSES = [200, 200, 424, 200, 200, 404, 401, 429, 404, 418, 0];
