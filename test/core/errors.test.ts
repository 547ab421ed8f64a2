import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import {
  apiErrorFor,
  ApprovalRequiredError,
  AuthenticationError,
  BadRequestError,
  CompanyNotFoundError,
  ConflictError,
  ConnectionRequiredError,
  CredentialRequiredError,
  DuplicateExecutionIdError,
  errorFromResponse,
  FailedDependencyError,
  GatewayTimeoutError,
  InternalError,
  InternalServerError,
  InvalidFormatError,
  InvalidJsonError,
  InvalidParamsError,
  NotEnabledError,
  NotFoundError,
  OzAPIError,
  OzError,
  PermissionDeniedError,
  RateLimitedError,
  RateLimitError,
  RequestTimedOutError,
  RequestTimeoutError,
  RouteNotFoundError,
  UnauthorizedError,
  UnprocessableEntityError,
  UpstreamError,
  type ErrorBody,
  type Format,
} from '../../src/index.js';
import { fastClient, rejectionOf } from './support/clients.js';
import { ScriptedServer } from './support/scriptedServer.js';

const server = ScriptedServer.forSuite();

type Class = abstract new (...args: never[]) => OzAPIError;

/** Every code of the spec's table and the contract's, with its status, its class and its status class. */
const CODES: [code: string, status: number, Class, Class][] = [
  ['invalid_json', 400, InvalidJsonError, BadRequestError],
  ['invalid_format', 400, InvalidFormatError, BadRequestError],
  ['unauthorized', 401, UnauthorizedError, AuthenticationError],
  ['company_not_found', 404, CompanyNotFoundError, NotFoundError],
  ['not_found', 404, RouteNotFoundError, NotFoundError],
  ['request_timeout', 408, RequestTimedOutError, RequestTimeoutError],
  ['approval_required', 409, ApprovalRequiredError, ConflictError],
  ['duplicate_execution_id', 409, DuplicateExecutionIdError, ConflictError],
  ['invalid_params', 422, InvalidParamsError, UnprocessableEntityError],
  ['connection_required', 424, ConnectionRequiredError, FailedDependencyError],
  ['credential_required', 424, CredentialRequiredError, FailedDependencyError],
  ['rate_limited', 429, RateLimitedError, RateLimitError],
  ['internal_error', 500, InternalError, InternalServerError],
  ['upstream_error', 502, UpstreamError, InternalServerError],
  ['not_enabled', 503, NotEnabledError, InternalServerError],
  ['timeout', 504, GatewayTimeoutError, InternalServerError],
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
      ].filter(Boolean);
      if (extra.length > 0) body += `\n${extra.join('\n')}\n`;
      if (error.execution_id) body += `\n---\nexecution_id: ${error.execution_id}\n`;
      return { contentType: 'text/markdown; charset=utf-8', body };
    }
    case 'text':
      return {
        contentType: 'text/plain; charset=utf-8',
        body: `${error.code}: ${error.message}\n${error.missing ? `missing: ${error.missing.join(', ')}\n` : ''}`,
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
      if (StatusClass === FailedDependencyError && (wire === 'json' || wire === 'yaml')) expect(e.connect).toEqual(connect);
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
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [408, RequestTimeoutError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [424, FailedDependencyError],
    [429, RateLimitError],
    [500, InternalServerError],
    [507, InternalServerError],
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
    expect(e).toBeInstanceOf(InternalServerError);
    expect(e).toMatchObject({ status: 502, code: 'http_502', message: '502 http_502: <h1>Bad gateway</h1>' });
  });

  it('a json error body that does not parse is read as no envelope: the typed error of its status and header', async () => {
    server.answer({ status: 409, headers: { 'content-type': 'application/json', 'x-error-code': 'already_exists' }, body: '{"error": {"code": "alr' });
    const e = await rejectionOf(fastClient(server).tools.get('echo'));
    expect(e).toBeInstanceOf(ConflictError);
    expect(e).toMatchObject({ status: 409, code: 'already_exists' });
  });

  it('an empty error body still gives a typed error', async () => {
    server.answer({ status: 404 });
    const e = await rejectionOf(fastClient(server).tools.get('echo'));
    expect(e).toBeInstanceOf(NotFoundError);
    expect((e as OzAPIError).code).toBe('http_404');
  });
});

describe('apiErrorFor and errorFromResponse', () => {
  it('apiErrorFor picks the class by header, then body code, then status', () => {
    expect(apiErrorFor(409, new Headers({ 'x-error-code': 'approval_required' }), undefined)).toBeInstanceOf(ApprovalRequiredError);
    expect(apiErrorFor(409, new Headers(), { code: 'duplicate_execution_id', message: 'm' })).toBeInstanceOf(DuplicateExecutionIdError);
    const fallback = apiErrorFor(429, new Headers(), { code: 'slow_down', message: 'm' }, 'ignored');
    expect(Object.getPrototypeOf(fallback)).toBe(RateLimitError.prototype);
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
      new Response('invalid_params: Missing fields.\nmissing: a, b\n', { status: 422, headers: { 'content-type': 'text/plain', 'x-error-code': 'invalid_params' } }),
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
