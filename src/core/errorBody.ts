import type { ConnectInfo, ErrorBody } from './errors.js';
import { tryParseJson } from './tryParseJson.js';
import { wireOfContentType } from './wire.js';
import { parseYaml } from './yaml.js';

/**
 * The error object of an error body on any wire, or undefined when the body carries none. json and yaml hold
 * the envelope `{error: {...}}`; markdown and text are read line by line as the service renders them.
 */
export async function readErrorBody(text: string, contentType: string | null): Promise<ErrorBody | undefined> {
  if (text.trim() === '') return undefined;
  switch (wireOfContentType(contentType)) {
    case 'yaml':
      return envelopeError(await parseYaml(text).catch(() => undefined));
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
    typeof connect === 'object' && connect !== null && typeof connect.provider === 'string' && typeof connect.link === 'string' &&
    (connect.method === 'oauth' || connect.method === 'api_key' || connect.method === 'wallet');
  if (!validConnect) delete typed.connect;
  return typed;
}

const splitList = (value: string) =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/**
 * `# Error: <code>`, a blank line, the message; then, when present, a blank line and `- missing: a, b`,
 * `- contract: ...`, `- hint: ...`, `- connect: <provider> <method> <link>` lines; then `---` and `execution_id: <id>` when the request created an execution.
 */
function markdownError(text: string): ErrorBody | undefined {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const heading = /^#\s*Error:\s*(\S+)\s*$/.exec(lines[0] ?? '');
  if (!heading) return undefined;
  const error: ErrorBody = { code: heading[1]!, message: '' };
  let end = lines.length;
  const footer = lines.lastIndexOf('---');
  if (footer > 0) {
    for (const line of lines.slice(footer + 1)) {
      const match = /^execution_id:\s*(\S+)\s*$/.exec(line);
      if (match) error.execution_id = match[1]!;
    }
    if (error.execution_id !== undefined) end = footer;
  }
  const body = lines.slice(1, end);
  while (body.length > 0) {
    const match = /^- (missing|contract|hint|connect):\s?(.*)$/.exec(body[body.length - 1]!.trimEnd());
    if (!match && body[body.length - 1]!.trim() !== '') break;
    body.pop();
    if (!match) continue;
    if (match[1] === 'missing') error.missing = splitList(match[2]!);
    else if (match[1] === 'connect') setConnect(error, match[2]!);
    else error[match[1] as 'contract' | 'hint'] = match[2]!.trim();
  }
  error.message = body.join('\n').trim();
  return error;
}

/** A 424's `connect` line on the markdown and text wires: `<provider> <method> <link>`. */
function setConnect(error: ErrorBody, line: string): void {
  const match = /^(\S+)\s+(oauth|api_key|wallet)\s+(\S.*)$/.exec(line.trim());
  if (match) error.connect = { provider: match[1]!, method: match[2] as ConnectInfo['method'], link: match[3]! };
}

/** `<code>: <message>`, then `missing: a, b` when fields are missing and `connect: ...` on a 424. */
function textError(text: string): ErrorBody | undefined {
  const lines = text.replace(/\r\n/g, '\n').trimEnd().split('\n');
  const first = /^([a-z][a-z0-9_]*):\s?(.*)$/.exec(lines[0] ?? '');
  if (!first) return undefined;
  const error: ErrorBody = { code: first[1]!, message: first[2]! };
  const rest: string[] = [];
  for (const line of lines.slice(1)) {
    const missing = /^missing:\s?(.*)$/.exec(line);
    const connect = /^connect:\s?(.*)$/.exec(line);
    if (missing) error.missing = splitList(missing[1]!);
    else if (connect) setConnect(error, connect[1]!);
    else rest.push(line);
  }
  if (rest.length > 0) error.message = [error.message, ...rest].join('\n').trim();
  return error;
}
