import type { ConnectInfo } from '../../generated/types.js';
import { redactAdminTokens } from '../support/adminTokenText.js';

/** The extra fields an error may carry besides `code` and `message`. */
export interface OzMockErrorFields {
  /** Names of absent fields (422 `invalid_params`). */
  readonly missing?: readonly string[];
  readonly contract?: string;
  readonly hint?: string;
  /** Where a missing connection is made (424). */
  readonly connect?: ConnectInfo;
  /** OpenAI's `param` (models plane). */
  readonly param?: string | null;
  /** `Retry-After` in seconds, for statuses the client retries. */
  readonly retryAfter?: number;
  /** Any further fields of the error object. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * An error the server answers with the service's error envelope: `{"error": {code, message, ...}}` on the
 * negotiated wire, with `X-Error-Code`. Throw it from a tool's or agent's handler to make the run fail with
 * that status and code (for example `new OzMockError(409, 'approval_required', 'Approve first')`). An admin token
 * in the message reads `ozadm_…`: a message may quote what a request sent.
 */
export class OzMockError extends Error {
  override readonly name = 'OzMockError';

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The error code, also sent as `X-Error-Code`. */
    readonly code: string,
    message: string,
    /** Extra fields of the error object. */
    readonly fields: OzMockErrorFields = {},
  ) {
    super(redactAdminTokens(message));
  }

  /** The error object of the envelope (without the execution id, which the server adds when there is one). */
  toObject(): Record<string, unknown> {
    const f = this.fields;
    const o: Record<string, unknown> = { code: this.code, message: this.message };
    if (f.missing) o.missing = [...f.missing];
    if (f.contract !== undefined) o.contract = f.contract;
    if (f.hint !== undefined) o.hint = f.hint;
    if (f.connect) o.connect = { ...f.connect };
    if (f.param !== undefined) o.param = f.param;
    if (f.extra) Object.assign(o, f.extra);
    return o;
  }
}

/** 400 `invalid_json`: the body (or a fixture document) does not parse as the syntax it was read as. */
export function invalidJson(syntax: 'JSON' | 'YAML' | 'JSON or YAML', detail: string, what = 'The request body'): OzMockError {
  return new OzMockError(400, 'invalid_json', `${what} is not valid ${syntax}: ${detail}`);
}

/** The spec's exact message of 400 `invalid_format`. */
export const INVALID_FORMAT_MESSAGE = 'format must be one of: json, yaml, markdown, text';

/** 422 `invalid_params`, with `missing` when fields are absent. */
export function invalidParams(message: string, missing?: readonly string[]): OzMockError {
  return new OzMockError(422, 'invalid_params', message, missing && missing.length ? { missing } : {});
}

/** The kinds of record whose absence answers 404 `<kind>_not_found` (`not_found` is only "no route"). */
export type RecordKind = 'tool' | 'agent' | 'workflow' | 'schedule' | 'execution' | 'item' | 'model' | 'company';

/** 404 `<kind>_not_found`: no such record. */
export function notFound(kind: RecordKind, message: string): OzMockError {
  return new OzMockError(404, `${kind}_not_found`, message);
}

/** 401 `unauthorized`. */
export function unauthorized(message: string): OzMockError {
  return new OzMockError(401, 'unauthorized', message);
}

/** 424 `connection_required` for a provider, with `connect`. */
export function connectionRequired(provider: string, method: ConnectInfo['method'] = 'oauth'): OzMockError {
  return new OzMockError(424, 'connection_required', `This call needs a ${provider} connection on the account.`, {
    connect: { provider, method, link: `POST /v1/connections/${provider}/link` },
    hint: `Link it with POST /v1/connections/${provider}/link, then retry.`,
  });
}

/** 424 `credential_required` for a provider's key or wallet, with `connect`. */
export function credentialRequired(provider: string, method: 'api_key' | 'wallet'): OzMockError {
  return new OzMockError(424, 'credential_required', `This call needs the account's ${provider} ${method === 'wallet' ? 'wallet' : 'key'}.`, {
    connect: { provider, method, link: `POST /v1/connections/${provider}/link` },
    hint: `Link it with POST /v1/connections/${provider}/link (method ${method}), then retry.`,
  });
}

/** Turns anything a handler threw into the error the run fails with. */
export function toMockError(err: unknown): OzMockError {
  if (err instanceof OzMockError) return err;
  return new OzMockError(500, 'internal_error', err instanceof Error ? err.message : String(err));
}

/**
 * 409 `reset`: the state a run or an event stream belonged to was reset, restored or replaced while it was in
 * flight (`reset()`, `restore()`, `importState()`, or the server closed); the run wrote nothing into the new state.
 */
export function stateReset(): OzMockError {
  return new OzMockError(
    409,
    'reset',
    "The server's state was reset (reset(), restore() or importState()) while this was in flight; its run belonged to the state that is gone.",
    {
      hint: 'Start the run again in the new state.',
    },
  );
}
