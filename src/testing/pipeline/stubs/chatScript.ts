import { LinearPattern, PatternError } from '../../support/linearPattern.js';
import { isPlainObject } from '../../support/plainObject.js';
import type { OperationInfo } from '../../contract/operations.js';

/** Which chat completion requests a stub answers, by the text of the conversation's last user message. */
export type LastUserMessageMatch = { readonly contains: string; readonly pattern?: undefined } | { readonly pattern: string; readonly contains?: undefined };

/** Which chat completion requests a stub answers, by the conversation's last message being a tool's result. */
export interface LastToolResultMatch {
  /** The result is for this tool call (`tool_call_id`); any tool result when left out. */
  readonly toolCallId?: string;
}

/**
 * How a streamed reply is paced on the server's clock: its first chunk `firstTokenMs` after the request, then one
 * token every `1000 / tokensPerSecond` ms, each wait drawn within `± jitter` of that (a fraction from 0 to 1) from a
 * generator seeded with `seed` (default 0): the same reply is paced the same every time.
 */
export interface ChatPace {
  readonly firstTokenMs: number;
  readonly tokensPerSecond: number;
  readonly jitter?: number;
  readonly seed?: number;
}

/** One tool call a scripted reply makes: the function's name and its arguments (an object, sent as a JSON text). */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/**
 * What a scripted chat completion answers: the assistant's `content`, or its `toolCalls`. The models plane renders
 * it as it renders its own answers: a completion, or OpenAI's chunks (tool call arguments in deltas) when the
 * request streams; `n`, `stop`, `max_tokens` and `usage` apply to it as to any answer. `pace` paces the chunks of a
 * streamed reply on the server's clock (a completion that does not stream answers at once).
 */
export type ChatReply = (
  { readonly content: string; readonly toolCalls?: undefined } | { readonly toolCalls: readonly ScriptedToolCall[]; readonly content?: undefined }
) & { readonly pace?: ChatPace };

const REPLY_FIELDS = ['content', 'toolCalls', 'pace'];
const CALL_FIELDS = ['name', 'arguments'];
const PACE_FIELDS = ['firstTokenMs', 'tokensPerSecond', 'jitter', 'seed'];
const TOOL_RESULT_FIELDS = ['toolCallId'];

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

/** The messages of a chat request's body (none when it has no array of them). */
function messagesOf(body: Readonly<Record<string, unknown>>): readonly unknown[] {
  return Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
}

/** How many assistant messages a chat request's conversation holds before its last message: its turn (0 first). */
export function assistantTurns(body: Readonly<Record<string, unknown>>): number {
  const messages = messagesOf(body);
  return messages.slice(0, -1).filter((m) => isPlainObject(m) && m.role === 'assistant').length;
}

/** Checks `match.turn` (a `TypeError` names the field): an integer from 0, of a chat completion. */
export function checkTurn(value: unknown, op: OperationInfo): asserts value is number {
  if (!scriptsChat(op)) throw new TypeError(`match.turn is only for chat completions, not ${op.id}`);
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new TypeError('match.turn must be an integer >= 0 (the assistant messages before the last message)');
}

/** The `tool_call_id` of a chat request's last message when it is a tool's result, else undefined. */
export function lastToolCallId(body: Readonly<Record<string, unknown>>): string | undefined {
  const last = messagesOf(body).at(-1);
  if (!isPlainObject(last) || last.role !== 'tool') return undefined;
  return typeof last.tool_call_id === 'string' ? last.tool_call_id : '';
}

/** Checks `match.lastToolResult` (a `TypeError` names the field); answers the test it makes of a request's body. */
export function lastToolResultTest(value: unknown, op: OperationInfo): (body: Readonly<Record<string, unknown>>) => boolean {
  if (!scriptsChat(op)) throw new TypeError(`match.lastToolResult is only for chat completions, not ${op.id}`);
  if (!isPlainObject(value)) throw new TypeError('match.lastToolResult must be an object: {} or { toolCallId: string }');
  for (const k of Object.keys(value))
    if (!TOOL_RESULT_FIELDS.includes(k)) throw new TypeError(`match.lastToolResult.${k} is not a field (known: ${TOOL_RESULT_FIELDS.join(', ')})`);
  if (value.toolCallId !== undefined && typeof value.toolCallId !== 'string') throw new TypeError('match.lastToolResult.toolCallId must be a string');
  const wanted = value.toolCallId;
  return (body) => {
    const id = lastToolCallId(body);
    return id !== undefined && (wanted === undefined || id === wanted);
  };
}

/**
 * Checks `match.turn` and `match.lastToolResult` (a `TypeError` names the field); answers the test they make of a
 * request's body together, or null when the match names neither.
 */
export function conversationTest(
  match: { readonly turn?: unknown; readonly lastToolResult?: unknown } | undefined,
  op: OperationInfo,
): ((body: Readonly<Record<string, unknown>>) => boolean) | null {
  if (match === undefined || (match.turn === undefined && match.lastToolResult === undefined)) return null;
  const turn = match.turn;
  if (turn !== undefined) checkTurn(turn, op);
  const toolResult = match.lastToolResult === undefined ? null : lastToolResultTest(match.lastToolResult, op);
  return (body) => (turn === undefined || assistantTurns(body) === turn) && (toolResult === null || toolResult(body));
}

/** Checks a reply's `pace`: a `TypeError` names the field. */
function checkPace(pace: unknown, at: string): void {
  if (!isPlainObject(pace)) throw new TypeError(`${at}.reply.pace must be { firstTokenMs, tokensPerSecond, jitter?, seed? }`);
  for (const k of Object.keys(pace))
    if (!PACE_FIELDS.includes(k)) throw new TypeError(`${at}.reply.pace.${k} is not a field (known: ${PACE_FIELDS.join(', ')})`);
  const { firstTokenMs, tokensPerSecond, jitter, seed } = pace;
  if (typeof firstTokenMs !== 'number' || !Number.isFinite(firstTokenMs) || firstTokenMs < 0)
    throw new TypeError(`${at}.reply.pace.firstTokenMs must be a number of milliseconds >= 0`);
  if (typeof tokensPerSecond !== 'number' || !Number.isFinite(tokensPerSecond) || tokensPerSecond <= 0)
    throw new TypeError(`${at}.reply.pace.tokensPerSecond must be a number > 0`);
  if (jitter !== undefined && (typeof jitter !== 'number' || !(jitter >= 0 && jitter <= 1)))
    throw new TypeError(`${at}.reply.pace.jitter must be a number from 0 to 1`);
  if (seed !== undefined && !(Number.isSafeInteger(seed) && (seed as number) >= 0)) throw new TypeError(`${at}.reply.pace.seed must be an integer >= 0`);
}

/** Checks a scripted reply (`answer.reply`): a `TypeError` names the field. */
export function checkChatReply(reply: unknown, at: string, op: OperationInfo): asserts reply is ChatReply {
  if (!scriptsChat(op)) throw new TypeError(`${at}.reply is only for chat completions, not ${op.id}`);
  if (!isPlainObject(reply)) throw new TypeError(`${at}.reply must be { content } or { toolCalls }`);
  for (const k of Object.keys(reply)) if (!REPLY_FIELDS.includes(k)) throw new TypeError(`${at}.reply.${k} is not a field (known: ${REPLY_FIELDS.join(', ')})`);
  if ((reply.content === undefined) === (reply.toolCalls === undefined)) throw new TypeError(`${at}.reply: give content or toolCalls (one of them)`);
  if (reply.content !== undefined && typeof reply.content !== 'string') throw new TypeError(`${at}.reply.content must be a string`);
  if (reply.pace !== undefined) checkPace(reply.pace, at);
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
  const messages = messagesOf(body);
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
