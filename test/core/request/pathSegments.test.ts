import { describe, expect, it } from 'vitest';
import { Oz, OzUsageError } from '../../../src/index.js';
import { KEY, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';
import { operationCalls } from '../../support/operationCalls.js';
import { OzCore, proxyGet, toolsGet } from '../../../src/funcs/index.js';

const server = ScriptedServer.forSuite(() => ({ status: 400, body: { error: { code: 'invalid_json', message: 'should not arrive' } } }));
const client = () => new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off', maxRetries: 0 });

// `.` and `..`, plain, percent-encoded in any case, half-encoded, and encoded twice (`%252e`).
const DOT_SEGMENTS = ['.', '..', '%2e', '%2E', '%2e%2e', '%2E%2E', '.%2e', '%2E.', '%252e%252e'];

describe('"." and ".." path segments are the usage error, before any request', () => {
  it('tools.execute("..") would reach POST /v1/execute: refused, nothing sent', async () => {
    const error = await rejectionOf(client().tools.execute('..', { params: {} }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/Path parameter "tool" of executeTool .*"\.\."/);
    expect(server.requests).toEqual([]);
  });

  it.each(['../../../v1/schedules', 'contacts/../../../v1/schedules', 'a/./b', 'a/%2E%2e/b', 'a/%2e', '..?x=1'])(
    'proxy paths: proxy.get / proxy.delete / proxy.post("crm", %j) are refused',
    async (path) => {
      const oz = client();
      for (const call of [oz.proxy.get('crm', path), oz.proxy.delete('crm', path), oz.proxy.post('crm', path, {})]) {
        expect(await rejectionOf(call)).toBeInstanceOf(OzUsageError);
      }
      expect(server.requests).toEqual([]);
    },
  );

  it('dots inside a segment, and a query string with dots, still go out', async () => {
    await client()
      .proxy.get('crm', 'files/a..b/.hidden/v1.2?next=../x')
      .catch(() => undefined);
    await client()
      .tools.get('my.tool')
      .catch(() => undefined);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/proxy/crm/files/a..b/.hidden/v1.2?next=../x', '/v1/tools/my.tool']);
  });

  // Every path parameter of every operation of openapi.json, through its client method.
  const cases = operationCalls().flatMap((op) =>
    op.pathParams.flatMap((param) => DOT_SEGMENTS.map((segment) => ({ op, param: param.name, segment, label: `${op.clientMethod} ${param.name}=${segment}` }))),
  );
  it.each(cases)('$label', async ({ op, param, segment }) => {
    const values = op.sample();
    values.path[param] = segment;
    const error = await rejectionOf(op.call(client(), values));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toContain(`Path parameter "${param}" of ${op.id}`);
    expect(server.requests).toEqual([]);
  });
});

describe('a lone surrogate in a path parameter is the usage error, not a URIError', () => {
  const LONE = ['\ud800', '\udc00', 'a\ud800b', 'tool\udfff'];
  const cases = operationCalls().flatMap((op) =>
    op.pathParams.flatMap((param) =>
      LONE.map((value) => ({ op, param: param.name, value, label: `${op.clientMethod} ${param.name}=${JSON.stringify(value)}` })),
    ),
  );
  it.each(cases)('$label', async ({ op, param, value }) => {
    const values = op.sample();
    values.path[param] = value;
    const error = await rejectionOf(op.call(client(), values));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toContain(`Path parameter "${param}" of ${op.id} holds a lone surrogate`);
    expect(server.requests).toEqual([]);
  });

  it('a standalone function refuses it too', async () => {
    const core = new OzCore({ apiKey: KEY, baseURL: server.url, logLevel: 'off' });
    expect(await rejectionOf(toolsGet(core, '\ud800'))).toBeInstanceOf(OzUsageError);
    expect(await rejectionOf(proxyGet(core, 'crm', 'contacts/\udc00'))).toBeInstanceOf(OzUsageError);
    expect(server.requests).toEqual([]);
  });

  it('a whole surrogate pair (an emoji) is a well-formed parameter and goes out encoded', async () => {
    await client()
      .tools.get('tool😀')
      .catch(() => undefined);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/tools/tool%F0%9F%98%80']);
  });
});
