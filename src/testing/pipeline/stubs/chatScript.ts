import { LinearPattern, PatternError } from '../../support/linearPattern.js';
import { isPlainObject } from '../../support/plainObject.js';
import type { OperationInfo } from '../../contract/operations.js';

/** Which chat completion requests a stub answers, by the text of the conversation's last user message. */
export type LastUserMessageMatch = { readonly contains: string; readonly pattern?: undefined } | { readonly pattern: string; readonly contains?: undefined };

/** One tool call a scripted reply makes: the function's name and its arguments (an object, sent as a JSON text). */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/**
 * What a scripted chat completion answers: the assistant's `content`, or its `toolCalls`. The models plane renders
 * it as it renders its own answers: a completion, or OpenAI's chunks (tool call arguments in deltas) when the
 * request streams; `n`, `stop`, `max_tokens` and `usage` apply to it as to any answer.
 */
export type ChatReply =
  { readonly content: string; readonly toolCalls?: undefined } | { readonly toolCalls: readonly ScriptedToolCall[]; readonly content?: undefined };

const REPLY_FIELDS = ['content', 'toolCalls'];
const CALL_FIELDS = ['name', 'arguments'];

/** Whether the operation is one whose stubs may script replies (`reply`, `match.lastUserMessage`): a chat completion. */
export function scriptsChat(op: OperationInfo): boolean {
  return op.streaming === 'chat';
}

/** Checks `match.lastUserMessage` (a `TypeError` names the field); answers the test it makes of a text. */
export function lastUserMessageTest(value: unknown, op: OperationInfo): (text: string) => boolean {
  if (!scriptsChat(op)) throw new TypeError(`match.lastUserMessage is only for chat completions, not ${op.id}`);
  if (!isPlainObject(value) || Object.keys(value).length !== 1 || !(typeof value.contains === 'string' || typeof value.pattern === 'string')) {
    throw new TypeError('match.lastUserMessage must be { contains: string } or { pattern: string }');
  }
  if (typeof value.contains === 'string') {
    const needle = value.contains;
    return (text) => text.includes(needle);
  }
  try {
    const pattern = new LinearPattern(value.pattern as string);
    return (text) => pattern.test(text);
  } catch (err) {
    const what = err instanceof PatternError ? 'is not supported' : 'is not a regular expression';
    throw new TypeError(`match.lastUserMessage.pattern ${what}: ${(err as Error).message}`);
  }
}

/** Checks a scripted reply (`answer.reply`): a `TypeError` names the field. */
export function checkChatReply(reply: unknown, at: string, op: OperationInfo): asserts reply is ChatReply {
  if (!scriptsChat(op)) throw new TypeError(`${at}.reply is only for chat completions, not ${op.id}`);
  if (!isPlainObject(reply)) throw new TypeError(`${at}.reply must be { content } or { toolCalls }`);
  for (const k of Object.keys(reply)) if (!REPLY_FIELDS.includes(k)) throw new TypeError(`${at}.reply.${k} is not a field (known: ${REPLY_FIELDS.join(', ')})`);
  if ((reply.content === undefined) === (reply.toolCalls === undefined)) throw new TypeError(`${at}.reply: give content or toolCalls (one of them)`);
  if (reply.content !== undefined && typeof reply.content !== 'string') throw new TypeError(`${at}.reply.content must be a string`);
  if (reply.toolCalls === undefined) return;
  if (!Array.isArray(reply.toolCalls) || reply.toolCalls.length === 0)
    throw new TypeError(`${at}.reply.toolCalls must be a non-empty array of { name, arguments }`);
  reply.toolCalls.forEach((call: unknown, i) => {
    const here = `${at}.reply.toolCalls[${i}]`;
    if (!isPlainObject(call)) throw new TypeError(`${here} must be { name, arguments }`);
    for (const k of Object.keys(call)) if (!CALL_FIELDS.includes(k)) throw new TypeError(`${here}.${k} is not a field (known: ${CALL_FIELDS.join(', ')})`);
    if (typeof call.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(call.name))
      throw new TypeError(`${here}.name must be a function name (letters, digits, _ or -, at most 64)`);
    if (call.arguments !== undefined && !isPlainObject(call.arguments)) throw new TypeError(`${here}.arguments must be an object`);
  });
}

/** The text of a chat request's last user message (its text parts joined), or `''` when it has none. */
export function lastUserText(body: Readonly<Record<string, unknown>>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (isPlainObject(message) && message.role === 'user') return messageText(message.content);
  }
  return '';
}

/** A message's content as text: a string as it is, an array's text parts joined by spaces. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (isPlainObject(part) && typeof part.text === 'string' ? part.text : '')).join(' ');
  return '';
}
