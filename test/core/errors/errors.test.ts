import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import {
  AgentNotFoundError,
  AlreadyExistsError,
  ExecutionCancelledError,
  ExecutionNotFoundError,
  Http405Error,
  IdempotencyConflictError,
  ResetError,
  ItemNotFoundError,
  MethodNotAllowedError,
  ModelNotFoundError,
  ScheduleNotFoundError,
  ToolNotFoundError,
  WorkflowNotFoundError,
  apiErrorFor,
  ApprovalRequiredError,
  Http401Error,
  Http400Error,
  CompanyNotFoundError,
  Http409Error,
  ConnectionRequiredError,
  CredentialRequiredError,
  DuplicateExecutionIdError,
  errorFromResponse,
  Http424Error,
  GatewayTimeoutError,
  InternalError,
  Http5xxError,
  InvalidFormatError,
  InvalidJsonError,
  InvalidParamsError,
  NotEnabledError,
  Http404Error,
  OzAPIError,
  OzError,
  Http403Error,
  RateLimitedError,
  Http429Error,
  RequestTimeoutError,
  Http408Error,
  RouteNotFoundError,
  UnauthorizedError,
  Http422Error,
  UpstreamError,
  type ErrorBody,
  type Format,
} from '../../../src/index.js';
import { fastClient, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite();

type Class = abstract new (...args: never[]) => OzAPIError;

/** Every code of the spec's table and the contract's, with its status, its class and its status class: the names users import. */
const CODES: [code: string, status: number, Class, Class][] = [
  ['invalid_json', 400, InvalidJsonError, Http400Error],
  ['invalid_format', 400, InvalidFormatError, Http400Error],
  ['unauthorized', 401, UnauthorizedError, Http401Error],
  ['company_not_found', 404, CompanyNotFoundError, Http404Error],
  ['not_found', 404, RouteNotFoundError, Http404Error],
  ['tool_not_found', 404, ToolNotFoundError, Http404Error],
  ['agent_not_found', 404, AgentNotFoundError, Http404Error],
  ['workflow_not_found', 404, WorkflowNotFoundError, Http404Error],
  ['schedule_not_found', 404, ScheduleNotFoundError, Http404Error],
  ['execution_not_found', 404, ExecutionNotFoundError, Http404Error],
  ['item_not_found', 404, ItemNotFoundError, Http404Error],
  ['model_not_found', 404, ModelNotFoundError, Http404Error],
  ['method_not_allowed', 405, MethodNotAllowedError, Http405Error],
  ['request_timeout', 408, RequestTimeoutError, Http408Error],
  ['approval_required', 409, ApprovalRequiredError, Http409Error],
  ['duplicate_execution_id', 409, DuplicateExecutionIdError, Http409Error],
  ['already_exists', 409, AlreadyExistsError, Http409Error],
  ['execution_cancelled', 409, ExecutionCancelledError, Http409Error],
  ['idempotency_conflict', 409, IdempotencyConflictError, Http409Error],
  ['reset', 409, ResetError, Http409Error],
  ['invalid_params', 422, InvalidParamsError, Http422Error],
  ['connection_required', 424, ConnectionRequiredError, Http424Error],
  ['credential_required', 424, CredentialRequiredError, Http424Error],
  ['rate_limited', 429, RateLimitedError, Http429Error],
  ['internal_error', 500, InternalError, Http5xxError],
  ['upstream_error', 502, UpstreamError, Http5xxError],
  ['not_enabled', 503, NotEnabledError, Http5xxError],
  ['timeout', 504, GatewayTimeoutError, Http5xxError],
];

const connect = { provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' } as const;

/** The error as the service renders it on each wire (the brief's shapes). */
function rendered(wire: Format, error: ErrorBody): { contentType: string; body: string } {
  switch (wire) {
    case 'json':
      return { contentType: 'application/json', body: JSON.stringify({ error }) };
    case 'yaml':
      return { contentType: 'text/yaml; charset=utf-8', body: dump({ error }) };
    case 'markdown': {
      let body = `# Error: ${error.code}\n\n${error.message}\n`;
      const extra = [
        error.missing ? `- missing: ${error.missing.join(', ')}` : undefined,
        error.contract ? `- contract: ${error.contract}` : undefined,
        error.hint ? `- hint: ${error.hint}` : undefined,
        error.connect ? `- connect: ${error.connect.provider} ${error.connect.method} ${error.connect.link}` : undefined,
      ].filter(Boolean);
      if (extra.length > 0) body += `\n${extra.join('\n')}\n`;
      if (error.execution_id) body += `\n---\nexecution_id: ${error.execution_id}\n`;
      return { contentType: 'text/markdown; charset=utf-8', body };
    }
    case 'text':
      return {
        contentType: 'text/plain; charset=utf-8',
        body:
          `${error.code}: ${error.message}\n${error.missing ? `missing: ${error.missing.join(', ')}\n` : ''}` +
          (error.connect ? `connect: ${error.connect.provider} ${error.connect.method} ${error.connect.link}\n` : ''),
      };
  }
}

const WIRES: Format[] = ['json', 'yaml', 'markdown', 'text'];

describe('each error code maps to its class on each wire', () => {
  for (const wire of WIRES) {
    it.each(CODES)(`${wire}: %s (%i)`, async (code, status, Class, StatusClass) => {
      const error: ErrorBody = {
        code,
        message: `The ${code} message: with a colon.`,
        execution_id: 'exe_err',
        ...(code === 'invalid_params' ? { missing: ['text', 'count'], contract: 'echo.v1', hint: 'Send text.' } : {}),
        ...(code === 'connection_required' || code === 'credential_required' ? { connect } : {}),
      };
      const { contentType, body } = rendered(wire, error);
      server.answer({ status, headers: { 'content-type': contentType, 'x-error-code': code, 'x-request-id': 'req_e1' }, body });
      const thrown = await rejectionOf(fastClient(server, { maxRetries: 0 }).tools.execute('echo', { text: 'x' }, { format: wire }));
      expect(thrown).toBeInstanceOf(Class);
      expect(thrown).toBeInstanceOf(StatusClass);
      expect(thrown).toBeInstanceOf(OzAPIError);
      expect(thrown).toBeInstanceOf(OzError);
      const e = thrown as OzAPIError;
      expect(e.code).toBe(code);
      expect(e.status).toBe(status);
      expect(e.name).toBe(Class.name);
      expect(e.requestId).toBe('req_e1');
      expect(e.message).toBe(`${status} ${code}: The ${code} message: with a colon.`);
      expect(e.headers.get('x-error-code')).toBe(code);
      if (wire !== 'text') expect(e.executionId).toBe('exe_err');
      if (code === 'invalid_params') {
        expect(e.missing).toEqual(['text', 'count']);
        if (wire !== 'text') expect({ contract: e.contract, hint: e.hint }).toEqual({ contract: 'echo.v1', hint: 'Send text.' });
      }
      // A 424 carries `connect` on every wire (markdown and text render it as a line).
      if (StatusClass === Http424Error) expect(e.connect).toEqual(connect);
    });
  }
});

describe('the class comes from X-Error-Code first', () => {
  it('uses the header over the body code and over the status', async () => {
    server.answer({ status: 400, headers: { 'x-error-code': 'invalid_format' }, body: { error: { code: 'invalid_json', message: 'm' } } });
    const e = await rejectionOf(fastClient(server).tools.get('echo'));
    expect(e).toBeInstanceOf(InvalidFormatError);
    expect((e as OzAPIError).code).toBe('invalid_format');
  });

  it('uses the body code when the header is absent', async () => {
    server.answer({ status: 422, body: { error: { code: 'invalid_params', message: 'm', missing: ['a'] } } });
    const e = await rejectionOf(fastClient(server).tools.get('echo'));
    expect(e).toBeInstanceOf(InvalidParamsError);
    expect((e as OzAPIError).missing).toEqual(['a']);
  });

  it('reads the code of a text body without the header', async () => {
    server.answer({ status: 404, headers: { 'content-type': 'text/plain' }, body: 'company_not_found: No company acme.\n' });
    const e = await rejectionOf(fastClient(server).companies.items.get('acme', 'itm_1', { format: 'text' }));
    expect(e).toBeInstanceOf(CompanyNotFoundError);
    expect((e as OzAPIError).message).toBe('404 company_not_found: No company acme.');
  });
});

describe('unknown codes fall back by status', () => {
  it.each([
    [400, Http400Error],
    [401, Http401Error],
    [403, Http403Error],
    [404, Http404Error],
    [408, Http408Error],
    [409, Http409Error],
    [422, Http422Error],
    [424, Http424Error],
    [429, Http429Error],
    [500, Http5xxError],
    [507, Http5xxError],
  ])('%i with an unknown code', async (status, StatusClass) => {
    server.answer({ status, headers: { 'x-error-code': 'brand_new_code', 'retry-after': '0' }, body: { error: { code: 'brand_new_code', message: 'new' } } });
    const e = await rejectionOf(fastClient(server, { maxRetries: 0 }).tools.get('echo'));
    expect(e).toBeInstanceOf(StatusClass);
    expect(Object.getPrototypeOf(e)).toBe(StatusClass.prototype);
    expect((e as OzAPIError).code).toBe('brand_new_code');
  });

  it('an unknown status with an unknown code is an OzAPIError', async () => {
    server.answer({ status: 418, headers: { 'x-error-code': 'teapot' }, body: { error: { code: 'teapot', message: 'short and stout' } } });
    const e = await rejectionOf(fastClient(server).tools.get('echo'));
    expect(Object.getPrototypeOf(e)).toBe(OzAPIError.prototype);
    expect(e).toMatchObject({ status: 418, code: 'teapot' });
  });

  it('a body that is not an envelope keeps its text as the message and http_<status> as the code', async () => {
    server.answer({ status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>Bad gateway</h1>' });
    const e = await rejectionOf(fastClient(server, { maxRetries: 0 }).tools.get('echo'));
    expect(e).toBeInstanceOf(Http5xxError);
    expect(e).toMatchObject({ status: 502, code: 'http_502', message: '502 http_502: <h1>Bad gateway</h1>' });
  });

  it('a json error body that does not parse is read as no envelope: the typed error of its status and header', async () => {
    server.answer({ status: 409, headers: { 'content-type': 'application/json', 'x-error-code': 'already_exists' }, body: '{"error": {"code": "alr' });
    const e = await rejectionOf(fastClient(server).tools.get('echo'));
    expect(e).toBeInstanceOf(Http409Error);
    expect(e).toMatchObject({ status: 409, code: 'already_exists' });
  });

  it('an empty error body still gives a typed error', async () => {
    server.answer({ status: 404 });
    const e = await rejectionOf(fastClient(server).tools.get('echo'));
    expect(e).toBeInstanceOf(Http404Error);
    expect((e as OzAPIError).code).toBe('http_404');
  });
});

describe('apiErrorFor and errorFromResponse', () => {
  it('apiErrorFor picks the class by header, then body code, then status', () => {
    expect(apiErrorFor(409, new Headers({ 'x-error-code': 'approval_required' }), undefined)).toBeInstanceOf(ApprovalRequiredError);
    expect(apiErrorFor(409, new Headers(), { code: 'duplicate_execution_id', message: 'm' })).toBeInstanceOf(DuplicateExecutionIdError);
    const fallback = apiErrorFor(429, new Headers(), { code: 'slow_down', message: 'm' }, 'ignored');
    expect(Object.getPrototypeOf(fallback)).toBe(Http429Error.prototype);
    expect(fallback.message).toBe('429 slow_down: m');
    expect(apiErrorFor(400, new Headers(), undefined, 'from the stream').message).toBe('400 http_400: from the stream');
  });

  it('errorFromResponse reads a markdown body with its missing, contract, hint and footer', async () => {
    const body =
      '# Error: invalid_params\n\nThe card rejected the params.\nSee the card.\n\n- missing: text, count\n- contract: tool card\n- hint: Send them.\n\n---\nexecution_id: exe_md\n';
    const e = await errorFromResponse(new Response(body, { status: 422, headers: { 'content-type': 'text/markdown' } }));
    expect(e).toBeInstanceOf(InvalidParamsError);
    expect(e).toMatchObject({
      code: 'invalid_params',
      missing: ['text', 'count'],
      contract: 'tool card',
      hint: 'Send them.',
      executionId: 'exe_md',
      message: '422 invalid_params: The card rejected the params.\nSee the card.',
    });
  });

  it('errorFromResponse reads a text body with its missing line', async () => {
    const e = await errorFromResponse(
      new Response('invalid_params: Missing fields.\nmissing: a, b\n', {
        status: 422,
        headers: { 'content-type': 'text/plain', 'x-error-code': 'invalid_params' },
      }),
    );
    expect(e).toMatchObject({ code: 'invalid_params', missing: ['a', 'b'], message: '422 invalid_params: Missing fields.' });
  });

  it('errorFromResponse reads a yaml body with timestamps kept as strings', async () => {
    const e = await errorFromResponse(
      new Response('error:\n  code: timeout\n  message: gave up\n  at: 2026-11-21T12:00:00.000Z\n', { status: 504, headers: { 'content-type': 'text/yaml' } }),
    );
    expect(e).toBeInstanceOf(GatewayTimeoutError);
    expect(e.error?.at).toBe('2026-11-21T12:00:00.000Z');
  });
});
