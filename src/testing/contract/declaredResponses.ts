import { OPERATION_ERROR_CODES } from '../../generated/operationErrors.js';
import type { OperationId } from '../../generated/operations.js';
import { OPENAPI_DOCUMENT, SERVER_OPERATIONS, type OperationInfo } from './operations.js';

/** One answer an operation of openapi.json declares: its status, its error code (errors only) and whether it streams. */
export interface DeclaredResponse {
  readonly status: number;
  /** The error code (`X-Error-Code`), or `null`: a success, or an error status the document names no code for. */
  readonly code: string | null;
  /** The answer is an event stream (`text/event-stream`). */
  readonly streamed: boolean;
}

interface ResponseObject {
  readonly $ref?: string;
  readonly content?: Readonly<Record<string, unknown>>;
  readonly 'x-oz-alternative-content'?: Readonly<Record<string, unknown>>;
}

interface Document {
  readonly paths: Readonly<Record<string, Readonly<Record<string, { readonly responses?: Readonly<Record<string, ResponseObject>> }>>>>;
  readonly components: {
    readonly responses: Readonly<Record<string, ResponseObject>>;
    readonly schemas: { readonly ErrorCode: { readonly oneOf: ReadonlyArray<{ readonly const: string; readonly 'x-oz-status': number }> } };
  };
}

const DOCUMENT = OPENAPI_DOCUMENT as unknown as Document;

/** The status each error code is answered with (`x-oz-status` of openapi.json's `ErrorCode`). */
const CODE_STATUS: ReadonlyMap<string, number> = new Map(DOCUMENT.components.schemas.ErrorCode.oneOf.map((c) => [c.const, c['x-oz-status']]));

const SSE = 'text/event-stream';

/** A response object with its `$ref` (to `components/responses`) followed. */
function resolved(response: ResponseObject): ResponseObject {
  if (response.$ref === undefined) return response;
  return DOCUMENT.components.responses[response.$ref.slice(response.$ref.lastIndexOf('/') + 1)] ?? {};
}

/** A success status's answers: buffered when a form other than an event stream is declared, streamed when one is. */
function successForms(status: number, response: ResponseObject): DeclaredResponse[] {
  const types = [...Object.keys(response.content ?? {}), ...Object.keys(response['x-oz-alternative-content'] ?? {})];
  const out: DeclaredResponse[] = [];
  if (types.length === 0 || types.some((t) => t !== SSE)) out.push({ status, code: null, streamed: false });
  if (types.includes(SSE)) out.push({ status, code: null, streamed: true });
  return out;
}

/**
 * The answers one operation declares: each status of its `responses`; a success once per form (buffered,
 * streamed); an error status once per error code the operation can answer with that status (its
 * `x-oz-error-codes` plus the root's `x-oz-error-code-rules`: the generated `OPERATION_ERROR_CODES`), or once with
 * `code: null` when it can answer none.
 */
function declaredOf(op: OperationInfo): DeclaredResponse[] {
  const responses = DOCUMENT.paths[op.path]?.[op.method.toLowerCase()]?.responses ?? {};
  const codes: readonly string[] = OPERATION_ERROR_CODES[op.id];
  const out: DeclaredResponse[] = [];
  for (const [key, response] of Object.entries(responses)) {
    const status = Number(key);
    if (!Number.isInteger(status)) continue;
    if (status < 400) {
      out.push(...successForms(status, resolved(response)));
      continue;
    }
    const own = codes.filter((c) => CODE_STATUS.get(c) === status).sort();
    if (own.length === 0) out.push({ status, code: null, streamed: false });
    for (const code of own) out.push({ status, code, streamed: false });
  }
  return out.sort((a, b) => a.status - b.status || Number(a.streamed) - Number(b.streamed) || (a.code ?? '').localeCompare(b.code ?? ''));
}

/** Every operation's declared answers, by operationId, in openapi.json's order of operations. */
export const DECLARED_RESPONSES: ReadonlyMap<OperationId, readonly DeclaredResponse[]> = new Map(SERVER_OPERATIONS.map((op) => [op.id, declaredOf(op)]));
