import { apiErrorFor, type OzAPIError } from '../errors/apiErrors.js';
import type { ConnectInfo, ErrorBody } from '../errors/errorShape.js';
import { boundedText } from '../shared/boundedText.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../errors/responseTooLargeError.js';
import { tryParseJson } from '../shared/tryParseJson.js';
import { wireOfContentType } from '../shared/wire.js';
import { yamlCodec } from '../shared/yaml.js';
import { markdownError, textError } from './errorLines.js';

/**
 * The typed error of a whole error `Response` on any wire: the body is read as the answer's `Content-Type`
 * says (json and yaml envelopes; markdown `# Error: <code>` with its `- missing:`, `- contract:`, `- hint:`
 * lines and `execution_id` footer; text `<code>: <message>` with its `missing:` line). At most 64 MiB of the body
 * is read (`maxResponseBytes`' default); a larger one is read as none.
 */
export async function errorFromResponse(response: Response): Promise<OzAPIError> {
  // At most the default bound of an answer: a body past it (or one that fails) is read as no body.
  const reader = response.body?.getReader();
  const text = reader === undefined ? '' : await boundedText(reader, DEFAULT_MAX_RESPONSE_BYTES).catch(() => '');
  return errorFromText(response.status, response.headers, text, response.statusText);
}

/** {@link errorFromResponse} for a body already read. */
export async function errorFromText(status: number, headers: Headers, text: string, statusText = ''): Promise<OzAPIError> {
  const error = await readErrorBody(text, headers.get('content-type'));
  return apiErrorFor(status, headers, error, text.trim().slice(0, 500) || statusText || undefined);
}

/**
 * The error object of an error body on any wire, or undefined when the body carries none. json and yaml hold
 * the envelope `{error: {...}}`; markdown and text are read line by line as the service renders them (by
 * errorLines.ts).
 */
export async function readErrorBody(text: string, contentType: string | null): Promise<ErrorBody | undefined> {
  if (text.trim() === '') return undefined;
  switch (wireOfContentType(contentType)) {
    case 'yaml': {
      const yaml = await yamlCodec();
      try {
        return envelopeError(yaml.parse(text));
      } catch {
        return undefined; // a broken document carries no envelope
      }
    }
    case 'markdown':
      return markdownError(text);
    case 'text':
      return textError(text);
    case 'json':
    default: {
      // A body that is no JSON carries no envelope: the error is built from the status and headers alone.
      const parsed = tryParseJson(text);
      return parsed.ok ? envelopeError(parsed.value) : undefined;
    }
  }
}

function envelopeError(document: unknown): ErrorBody | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const error = (document as { error?: unknown }).error;
  if (typeof error === 'object' && error !== null && !Array.isArray(error) && typeof (error as ErrorBody).code === 'string') {
    return withTypedFields(error as Record<string, unknown>);
  }
  // OpenAI-style `{error: "message"}` bodies and other shapes keep their text as the message.
  if (typeof error === 'string') return { code: '', message: error };
  return undefined;
}

/**
 * The envelope's error object with its documented fields kept only when they have their documented types: a
 * body from a proxy or a broken server must not put an object where `OzAPIError.missing` promises `string[]`.
 */
function withTypedFields(error: Record<string, unknown>): ErrorBody {
  const typed: ErrorBody = { ...error, code: error.code as string, message: typeof error.message === 'string' ? error.message : '' };
  for (const field of ['contract', 'hint', 'execution_id'] as const) {
    if (typeof error[field] !== 'string') delete typed[field];
  }
  if (!Array.isArray(error.missing) || !error.missing.every((name) => typeof name === 'string')) delete typed.missing;
  const connect = error.connect as Partial<Record<keyof ConnectInfo, unknown>> | null | undefined;
  const validConnect =
    typeof connect === 'object' &&
    connect !== null &&
    typeof connect.provider === 'string' &&
    typeof connect.link === 'string' &&
    (connect.method === 'oauth' || connect.method === 'api_key' || connect.method === 'wallet');
  if (!validConnect) delete typed.connect;
  return typed;
}
