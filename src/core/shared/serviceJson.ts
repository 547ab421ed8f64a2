import { OzError } from '../errors/errors.js';
import { tryParseJson } from './tryParseJson.js';

/** Whether a `Content-Type` is JSON as the service writes it (most answers), read without parsing the media type. */
export function isServiceJson(contentType: string | null): boolean {
  return contentType === 'application/json' || contentType === 'application/json; charset=utf-8';
}

/** A success answer's JSON body: undefined when it is empty, else {@link jsonAnswer}. */
export function jsonBody(text: string): unknown {
  return text.trim() === '' ? undefined : jsonAnswer(text);
}

/** A success answer's JSON; a broken one is the typed {@link OzError}, never a bare `SyntaxError`. */
export function jsonAnswer(text: string): unknown {
  const parsed = tryParseJson(text);
  if (!parsed.ok) throw new OzError('The answer is not valid JSON.', { cause: parsed.error });
  return parsed.value;
}
