// What each error of src/core/errors/ carries, read on the error itself: its name and code (what a `switch` or a
// log reads), its message, its fields, and the status fallbacks. errors.test.ts walks the API errors through a
// client and every wire; here the classes are made directly.
import { describe, expect, it } from 'vitest';
import { apiErrorFor, Http405Error, Http413Error, OzAPIError, statusForCode, UnauthorizedError } from '../../../src/core/errors/apiErrors.js';
import { abortError, OzAbortError, OzConnectionError, OzError, OzTimeoutError, OzUsageError } from '../../../src/core/errors/errors.js';
import { isLegacyKeyOffPlane, LegacyKeyError, legacyKeyPlane } from '../../../src/core/errors/legacyKeyError.js';
import { OzMiddlewareError } from '../../../src/core/errors/middlewareError.js';
import { MAX_REDIRECTS, OzRedirectError } from '../../../src/core/errors/redirectError.js';
import { DEFAULT_MAX_RESPONSE_BYTES, OzResponseTooLargeError } from '../../../src/core/errors/responseTooLargeError.js';
import { OzResponseValidationError } from '../../../src/core/errors/responseValidationError.js';
import { describeAnswer, isJsonObject, unexpectedAnswer } from '../../../src/core/errors/unexpectedAnswer.js';
import '../../../src/index.js';

describe("the SDK's own errors", () => {
  it('each has its class name as name and its code', () => {
    const made: [OzError, string, string | undefined][] = [
      [new OzError('m'), 'OzError', undefined],
      [new OzUsageError('m'), 'OzUsageError', 'usage_error'],
      [new OzConnectionError('m'), 'OzConnectionError', 'connection_error'],
      [new OzTimeoutError('m'), 'OzTimeoutError', 'timeout_error'],
      [new OzAbortError('m'), 'OzAbortError', 'abort_error'],
      [new OzRedirectError('m', 302, undefined), 'OzRedirectError', 'redirect_error'],
      [new OzResponseTooLargeError(1, 2), 'OzResponseTooLargeError', 'response_too_large'],
      [
        new OzResponseValidationError({ operationId: 'o', path: '$', value: 1, requestId: undefined, problem: 'p' }),
        'OzResponseValidationError',
        'response_validation_error',
      ],
      [new OzMiddlewareError('m', 0), 'OzMiddlewareError', undefined],
    ];
    for (const [error, name, code] of made) {
      expect(error.name).toBe(name);
      expect((error as { code?: string }).code).toBe(code);
      expect(String(error)).toBe(`${name}: ${error.message}`);
    }
  });

  it('abortError carries the signal’s reason as its cause', () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const error = abortError(controller.signal);
    expect(error).toBeInstanceOf(OzAbortError);
    expect(error.message).toBe('The call was aborted.');
    expect(error.cause).toBe(reason);
    expect(abortError(undefined).cause).toBeUndefined();
  });

  it('instanceof refuses what is not an object', () => {
    for (const value of [null, undefined, 'OzError', 0, Symbol('x')]) expect(OzError[Symbol.hasInstance](value)).toBe(false);
    expect(OzError[Symbol.hasInstance](new OzUsageError('m'))).toBe(true);
    expect(OzUsageError[Symbol.hasInstance](new OzError('m'))).toBe(false);
    // An object whose prototype has no constructor (made from Object.create(null)) is no error, and no throw.
    expect(Object.create(Object.create(null)) instanceof OzError).toBe(false);
  });

  it('OzMiddlewareError, OzRedirectError, OzResponseTooLargeError and OzResponseValidationError keep their fields', () => {
    const cause = new Error('inner');
    expect(new OzMiddlewareError('m', 2, { cause })).toMatchObject({ message: 'm', middlewareIndex: 2, cause });
    expect(new OzRedirectError('r', 307, 'https://other.example/')).toMatchObject({ message: 'r', status: 307, location: 'https://other.example/' });
    expect(MAX_REDIRECTS).toBe(20);
    const tooLarge = new OzResponseTooLargeError(1024, 1500);
    expect(tooLarge).toMatchObject({ maxResponseBytes: 1024, bytesRead: 1500 });
    expect(tooLarge.message).toBe(
      "The answer's body passed maxResponseBytes (1024 bytes, counted after decompression) at 1500 bytes, and the attempt was aborted. Pass a larger maxResponseBytes (client or call option) to read larger answers.",
    );
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(64 * 1024 * 1024);
    const fields = { operationId: 'whoami', path: '$.name', value: 3, problem: 'must be string' };
    const validation = new OzResponseValidationError({ ...fields, requestId: 'req_1' }, { cause });
    expect(validation).toMatchObject({ operationId: 'whoami', path: '$.name', value: 3, requestId: 'req_1', cause });
    expect(validation.message).toBe('whoami: the answer does not match openapi.json at $.name: must be string (request req_1).');
    expect(new OzResponseValidationError({ ...fields, requestId: undefined }).message).toBe(
      'whoami: the answer does not match openapi.json at $.name: must be string.',
    );
  });
});

describe('OzAPIError', () => {
  it('reads code, request id and execution id from the headers first, then the body', () => {
    const headers = new Headers({ 'x-error-code': 'from_header', 'x-request-id': 'req_h', 'x-execution-id': 'exe_h' });
    const error = new OzAPIError(409, headers, { code: 'from_body', message: 'Said.', execution_id: 'exe_b' });
    expect(error).toMatchObject({ status: 409, code: 'from_header', requestId: 'req_h', executionId: 'exe_h', message: '409 from_header: Said.' });
    expect(error.headers).toBe(headers);
    const fromBody = new OzAPIError(409, new Headers(), { code: 'from_body', message: 'Said.', execution_id: 'exe_b' });
    expect(fromBody).toMatchObject({ code: 'from_body', requestId: undefined, executionId: 'exe_b' });
    expect(new OzAPIError(409, new Headers(), { code: 'c', message: 'm' }).executionId).toBeUndefined();
  });

  it('without a body message says so, or uses the one it was given', () => {
    expect(new OzAPIError(502, new Headers(), undefined).message).toBe('502 http_502: the service answered an error without a message');
    expect(new OzAPIError(502, new Headers(), undefined, 'the proxy said no').message).toBe('502 http_502: the proxy said no');
    expect(new OzAPIError(502, new Headers(), { code: 'c', message: '' }, 'given').message).toBe('502 c: given');
    // An empty X-Error-Code is no code.
    expect(new OzAPIError(400, new Headers({ 'x-error-code': '' }), { code: 'body_code', message: 'm' }).code).toBe('body_code');
  });

  it('keeps the envelope and its missing, contract, hint and connect', () => {
    const connect = { provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' } as const;
    const body = { code: 'connection_required', message: 'm', missing: ['a'], contract: 'c', hint: 'h', connect };
    const error = new OzAPIError(424, new Headers(), body);
    expect(error).toMatchObject({ error: body, missing: ['a'], contract: 'c', hint: 'h', connect });
    expect(new OzAPIError(424, new Headers(), undefined)).toMatchObject({
      error: undefined,
      missing: undefined,
      contract: undefined,
      hint: undefined,
      connect: undefined,
    });
  });
});

describe('statusForCode and apiErrorFor', () => {
  it('a known code has its status, an unknown one 500', () => {
    expect(statusForCode('rate_limited')).toBe(429);
    expect(statusForCode('connection_required')).toBe(424);
    expect(statusForCode('brand_new_code')).toBe(500);
    expect(statusForCode('toString')).toBe(500);
  });

  it('405 and 413 with an unknown code are their status classes', () => {
    for (const [status, Class] of [
      [405, Http405Error],
      [413, Http413Error],
    ] as const) {
      const error = apiErrorFor(status, new Headers(), { code: 'brand_new_code', message: 'm' });
      expect(Object.getPrototypeOf(error)).toBe(Class.prototype);
      expect(error.name).toBe(Class.name);
    }
  });

  it('a code that names an Object method is no code class', () => {
    expect(Object.getPrototypeOf(apiErrorFor(418, new Headers({ 'x-error-code': 'constructor' }), undefined))).toBe(OzAPIError.prototype);
  });
});

describe('LegacyKeyError', () => {
  it('names the plane a legacy key opens, without the key', () => {
    const source = new UnauthorizedError(401, new Headers({ 'x-request-id': 'req_l' }), { code: 'unauthorized', message: 'Not on this plane.' });
    const error = new LegacyKeyError(source, 'models', 'core');
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ name: 'LegacyKeyError', keyPlane: 'models', plane: 'core', status: 401, requestId: 'req_l' });
    expect(error.message).toBe(
      "401 unauthorized: a legacy sk- key opens only the models plane; the core plane takes only a platform key (ozk_...). Create one in the dashboard's keys tab. (Not on this plane.)",
    );
    const unknown = new LegacyKeyError(new UnauthorizedError(401, new Headers(), undefined), 'unknown', 'proxy');
    expect(unknown.message).toBe(
      "401 unauthorized: a legacy sk- key opens no plane but its own; the proxy plane takes only a platform key (ozk_...). Create one in the dashboard's keys tab. (no message)",
    );
  });

  it('tells the plane of a key by its prefix, and whether it is used off that plane', () => {
    expect(['ozk_1', 'sk-mdl-1', 'sk-prx-1', 'sk-1', 'xsk-mdl-1'].map(legacyKeyPlane)).toEqual([undefined, 'models', 'proxy', 'unknown', undefined]);
    expect(isLegacyKeyOffPlane('sk-mdl-1', 'models')).toBeUndefined();
    expect(isLegacyKeyOffPlane('sk-mdl-1', 'core')).toBe('models');
    expect(isLegacyKeyOffPlane('sk-prx-1', 'proxy')).toBeUndefined();
    expect(isLegacyKeyOffPlane('sk-1', 'core')).toBe('unknown');
    expect(isLegacyKeyOffPlane('ozk_1', 'core')).toBeUndefined();
  });
});

describe('describeAnswer and unexpectedAnswer', () => {
  it('gives a short account of each kind of value', () => {
    expect(describeAnswer(null)).toBe('null');
    expect(describeAnswer(undefined)).toBe('nothing');
    expect(describeAnswer([])).toBe('an array (0 items)');
    expect(describeAnswer([1])).toBe('an array (1 item)');
    expect(describeAnswer([1, 2])).toBe('an array (2 items)');
    expect(describeAnswer('running')).toBe('the string "running"');
    expect(describeAnswer(3)).toBe('the number 3');
    expect(describeAnswer(false)).toBe('the boolean false');
    expect(describeAnswer({})).toBe('an empty object');
    expect(describeAnswer({ ok: true, content: 'x' })).toBe('an object with keys ok, content');
  });

  it('cuts a string or a key list past 60 characters', () => {
    expect(describeAnswer('a'.repeat(60))).toBe(`the string "${'a'.repeat(60)}"`);
    expect(describeAnswer('a'.repeat(61))).toBe(`the string "${'a'.repeat(60)}…"`);
    const keys = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key${i}`, i]));
    const shown = Object.keys(keys).join(', ');
    expect(describeAnswer(keys)).toBe(`an object with keys ${shown.slice(0, 60)}…`);
    const sixty = { [`${'k'.repeat(60)}`]: 1 };
    expect(describeAnswer(sixty)).toBe(`an object with keys ${'k'.repeat(60)}`);
  });

  it('unexpectedAnswer names what was expected and what came', () => {
    const error = unexpectedAnswer('whoami', 'an object', []);
    expect(error).toBeInstanceOf(OzError);
    expect(error.message).toBe('The answer of whoami is not an object: it is an array (0 items).');
  });

  it('isJsonObject holds for objects only', () => {
    expect([{}, { a: 1 }].map(isJsonObject)).toEqual([true, true]);
    expect([null, [], 'x', 1, undefined].map(isJsonObject)).toEqual([false, false, false, false, false]);
  });
});
