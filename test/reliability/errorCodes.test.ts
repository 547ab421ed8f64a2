/**
 * Every error code reaches the caller as its own class (issue 13, the contract's "Error codes"): the classes and
 * their table are generated from openapi.json's `ErrorCode`, and each code comes out as its class, with its status,
 * on every wire and inside streams, from the embedded server's own answers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConnectionRequiredError,
  CredentialRequiredError,
  ERROR_CODES,
  errorFromResponse,
  ExecutionCancelledError,
  Http404Error,
  Http409Error,
  Http5xxError,
  MethodNotAllowedError,
  ForbiddenHostError,
  Http403Error,
  Oz,
  OzAPIError,
  RouteNotFoundError,
  ToolNotFoundError,
  type ErrorCodeName,
  type Format,
} from '../../src/index.js';
import * as sdk from '../../src/index.js';
import { OzMockError, type OperationId, type OzServer } from '../../src/testing/index.js';
import { createTestServer } from '../support/ozServer.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const openapi = JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  components: { schemas: { ErrorCode: { oneOf: { const: string; 'x-oz-status': number }[] } } };
};
const ENUM = openapi.components.schemas.ErrorCode.oneOf.map((b) => [b.const, b['x-oz-status']] as const);
const WIRES: readonly Format[] = ['json', 'yaml', 'markdown', 'text'];

let server: OzServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function setUp(): { oz: Oz; server: OzServer } {
  server = createTestServer({ timing: { tokenMs: 1 } });
  return { oz: new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off', maxRetries: 0 }), server };
}

/** The status class a code's class must extend. */
function statusClass(status: number): abstract new (...args: never[]) => OzAPIError {
  if (status >= 500) return Http5xxError;
  const name = `Http${status}Error` as keyof typeof sdk;
  const found = sdk[name] as unknown as (abstract new (...args: never[]) => OzAPIError) | undefined;
  if (!found) throw new Error(`no status class ${name}`);
  return found;
}

/** An operation whose documented answers include the status, and the SDK call that reaches it. */
const CALLS: readonly { operationId: OperationId; call: (oz: Oz, format: Format) => Promise<unknown> }[] = [
  { operationId: 'executeTool', call: (oz, format) => oz.tools.execute('echo', { text: 'x' }, { format }) },
  { operationId: 'createCompanyItem', call: (oz, format) => oz.companies.items.create('acme', { building: 'lab', title: 'x' }, { format }) },
];
const documented = (operationId: string, status: number) =>
  Object.values(openapi.paths).some((item) => Object.values(item).some((op) => op.operationId === operationId && String(status) in op.responses));

describe('openapi.json ErrorCode and the generated classes', () => {
  it('gives every code of the enum its class, with the enum status, under its status class', () => {
    expect(ENUM.length).toBeGreaterThanOrEqual(27);
    expect(Object.keys(ERROR_CODES).sort()).toEqual(ENUM.map(([code]) => code).sort());
    const names = new Set<string>();
    for (const [code, status] of ENUM) {
      const entry = ERROR_CODES[code as keyof typeof ERROR_CODES];
      expect(entry.status, code).toBe(status);
      const error = new entry.class(status, new Headers({ 'x-error-code': code }), { code, message: 'm' });
      expect(error, code).toBeInstanceOf(statusClass(status));
      expect(error.code, code).toBe(code);
      // Code classes never look like status classes (Http...) or the SDK's own errors (Oz...).
      expect(entry.class.name, code).not.toMatch(/^(Http|Oz)/);
      expect(error.name, code).toBe(entry.class.name);
      names.add(entry.class.name);
    }
    expect(names.size).toBe(ENUM.length);
  });

  it('knows every code the embedded server can answer, with the same status', () => {
    const dir = join(root, 'src/testing');
    const files = readdirSync(dir, { recursive: true, withFileTypes: true })
      // The dashboard (its sign-in and its keys tab) is another service; its codes reach the caller as SignInError.
      // oz-mock's control plane (control/) answers codes its own document describes, not the service's.
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && e.name !== 'dashboard.ts' && e.name !== 'keysTab.ts' && !e.parentPath.endsWith('control'))
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
    const answered = new Map<string, number>();
    for (const text of files) {
      for (const m of text.matchAll(/\b([45]\d\d),\s*'([a-z][a-z_]*)'/g)) answered.set(m[2]!, Number(m[1]));
      for (const m of text.matchAll(/\bnotFound\('([a-z]+)'/g)) answered.set(`${m[1]}_not_found`, 404);
    }
    // Codes the helpers of src/testing/contract/errors.ts answer.
    for (const [code, status] of [
      ['invalid_json', 400],
      ['invalid_params', 422],
      ['unauthorized', 401],
      ['connection_required', 424],
      ['credential_required', 424],
    ] as const)
      answered.set(code, status);
    expect(answered.size).toBeGreaterThan(20);
    // Codes the control plane's own methods answer from server.ts (for example `no_state_file`).
    const controlPlane = readFileSync(join(dir, 'control/controlOpenapi.ts'), 'utf8');
    for (const m of controlPlane.matchAll(/\berr\('([a-z_]+):/g)) if (!ENUM.some(([code]) => code === m[1])) answered.delete(m[1]!);
    const table = new Map<string, number>(ENUM);
    for (const [code, status] of answered) expect([code, table.get(code)]).toEqual([code, status]);
  });
});

describe('every code reaches the caller as its class (the embedded server, the SDK)', () => {
  it.each(WIRES)('on the %s wire', async (format) => {
    const { oz, server: s } = setUp();
    let checked = 0;
    const ownTests: string[] = [];
    for (const [code, status] of ENUM) {
      const target = CALLS.find((c) => documented(c.operationId, status));
      if (!target) {
        ownTests.push(code);
        continue;
      }
      s.faults.add({ operationId: target.operationId, type: 'error', status, code: code as ErrorCodeName, retryAfter: 0 });
      const error = await target.call(oz, format).catch((e: unknown) => e);
      const entry = ERROR_CODES[code as keyof typeof ERROR_CODES];
      expect(error, `${code} on ${format}`).toBeInstanceOf(entry.class);
      expect(error, `${code} on ${format}`).toBeInstanceOf(statusClass(status));
      expect(error, `${code} on ${format}`).toMatchObject({ status, code });
      checked++;
    }
    // Answered only by the MCP URL (405 on GET, 403 for a foreign Host): each has its own test.
    expect(ownTests.sort()).toEqual(['forbidden_host', 'method_not_allowed']);
    expect(checked).toBe(ENUM.length - ownTests.length);
  });

  it('inside streams: an error event of every code throws its class, with its status', async () => {
    const { oz, server: s } = setUp();
    for (const [code, status] of ENUM) {
      s.addAgent({
        name: `fail-${code}`,
        handler: () => {
          throw new OzMockError(status, code, `The agent failed with ${code}.`);
        },
      });
      const stream = await oz.agents.execute({ agent: `fail-${code}`, user_request: 'x', stream: true });
      const error = await (async () => {
        for await (const event of stream) void event;
      })().catch((e: unknown) => e);
      expect(error, code).toBeInstanceOf(ERROR_CODES[code as keyof typeof ERROR_CODES].class);
      expect(error, code).toMatchObject({ status, code, executionId: stream.executionId });
    }
  });

  it('405 method_not_allowed: GET on the MCP URL reads as MethodNotAllowedError', async () => {
    const { server: s } = setUp();
    const error = await errorFromResponse(await s.fetch(s.mcpUrl, { headers: { authorization: `Bearer ${s.apiKey}` } }));
    expect(error).toBeInstanceOf(MethodNotAllowedError);
    expect(error).toMatchObject({ status: 405, code: 'method_not_allowed' });
  });

  it('403 forbidden_host: a foreign Host on the loopback MCP listener reads as ForbiddenHostError', async () => {
    const { server: s } = setUp();
    const listener = await s.listen();
    const url = new URL(listener.mcpUrl);
    // fetch() sets Host itself: node:http lets the test send the foreign one a rebinding page would.
    const raw = await new Promise<{ status: number; headers: Record<string, string>; text: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: 'POST', headers: { host: 'evil.example.com', authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, text }));
        },
      );
      req.on('error', reject).end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    });
    const error = await errorFromResponse(new Response(raw.text, { status: raw.status, headers: raw.headers }));
    expect(error).toBeInstanceOf(ForbiddenHostError);
    expect(error).toBeInstanceOf(Http403Error);
    expect(error).toMatchObject({ status: 403, code: 'forbidden_host' });
  });

  it('cancelling an execution while its stream is read throws ExecutionCancelledError (409)', async () => {
    server = createTestServer({ timing: { tokenMs: 20 } });
    const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off' });
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const stream = await oz.agents.execute({ agent: 'writer', user_request: words, stream: true });
    const error = await (async () => {
      for await (const event of stream) {
        if (event.event === 'token') await oz.executions.cancel(stream.executionId!);
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutionCancelledError);
    expect(error).toBeInstanceOf(Http409Error);
    expect(error).toMatchObject({ status: 409, code: 'execution_cancelled', executionId: stream.executionId });
    // The same cancel seen through wait(): the same class.
    await expect(oz.executions.wait(stream.executionId!)).rejects.toBeInstanceOf(ExecutionCancelledError);
  });

  it('GET /v1/tools/nope throws ToolNotFoundError; an unknown route throws RouteNotFoundError', async () => {
    const { oz, server: s } = setUp();
    const error = await oz.tools.get('nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect(error).toBeInstanceOf(Http404Error);
    expect(error).not.toBeInstanceOf(RouteNotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'tool_not_found' });
    const route = await errorFromResponse(await s.fetch(`${s.url}/v1/nowhere`, { headers: { authorization: `Bearer ${s.apiKey}` } }));
    expect(route).toBeInstanceOf(RouteNotFoundError);
    expect(route).toMatchObject({ status: 404, code: 'not_found' });
  });

  it.each(WIRES)('424 classes carry connect on the %s wire', async (format) => {
    const { oz, server: s } = setUp();
    const error = await oz.tools.execute('crm_lookup', { query: 'ada@example.com' }, { format }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionRequiredError);
    const connect = (error as ConnectionRequiredError).connect;
    expect(connect).toEqual({ provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' });
    s.addTool({ name: 'wallet_pay', required: [], credential: { provider: 'bank', method: 'wallet' }, handler: () => 'paid' });
    const credential = await oz.tools.execute('wallet_pay', {}, { format }).catch((e: unknown) => e);
    expect(credential).toBeInstanceOf(CredentialRequiredError);
    expect((credential as CredentialRequiredError).connect).toMatchObject({ provider: 'bank', method: 'wallet' });
  });
});
