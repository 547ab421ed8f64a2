import type { ConnectInfo, ErrorBody } from '../errors/errorShape.js';

// The error bodies of the markdown and text wires, read line by line as the service renders them (for
// errorBody.ts).

const splitList = (value: string) =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/**
 * `# Error: <code>`, a blank line, the message; then, when present, a blank line and `- missing: a, b`,
 * `- contract: ...`, `- hint: ...`, `- connect: <provider> <method> <link>` lines; then `---` and `execution_id: <id>` when the request created an execution.
 */
export function markdownError(text: string): ErrorBody | undefined {
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
export function textError(text: string): ErrorBody | undefined {
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
