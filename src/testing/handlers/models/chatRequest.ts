import type { ChatCompletionRequest, ChatTool } from '../../../generated/types.js';
import { OzMockError } from '../../contract/errors.js';
import { isPlainObject } from '../../support/plainObject.js';

/** What a chat completion request asks of the answer, beyond openapi.json's shapes (which the pipeline checked). */
export interface ChatAsk {
  /** The tools offered, by name. */
  readonly tools: ReadonlyMap<string, ChatTool>;
  /** The tool the answer must call (a named `tool_choice`, or the first tool for `required`), or `null`. */
  readonly forcedTool: ChatTool | null;
  /** `response_format`'s type (`text` when none). */
  readonly format: 'text' | 'json_object' | 'json_schema';
  /** The `json_schema` format's schema (an empty schema when it gives none). */
  readonly schema: Readonly<Record<string, unknown>>;
  /** The most tokens of content per choice, or `null`. */
  readonly maxTokens: number | null;
  /** The stop sequences (none: an empty list). */
  readonly stop: readonly string[];
  /** How many choices. */
  readonly n: number;
}

function invalid(param: string, message: string): OzMockError {
  return new OzMockError(422, 'invalid_params', message, { param });
}

/** The tools by name: two of one name are the caller's mistake. */
function toolsByName(tools: readonly ChatTool[]): Map<string, ChatTool> {
  const byName = new Map<string, ChatTool>();
  tools.forEach((tool, i) => {
    if (byName.has(tool.function.name)) throw invalid(`tools[${i}].function.name`, `Two tools are named ${tool.function.name}.`);
    byName.set(tool.function.name, tool);
  });
  return byName;
}

function forcedToolOf(b: ChatCompletionRequest, tools: ReadonlyMap<string, ChatTool>): ChatTool | null {
  const choice = b.tool_choice;
  if (choice === undefined || choice === 'auto' || choice === 'none') return null;
  if (tools.size === 0) throw invalid('tool_choice', 'tool_choice is only allowed when tools are given.');
  if (choice === 'required') return tools.values().next().value!;
  const named = tools.get(choice.function.name);
  if (!named) throw invalid('tool_choice', `tool_choice names ${choice.function.name}, which is not one of the tools (${[...tools.keys()].join(', ')}).`);
  return named;
}

/**
 * Every `tool` message answers a tool call of an assistant message before it (`tool_call_id`), and only assistant
 * messages carry `tool_calls`: OpenAI's rules, checked where the schema cannot.
 */
function checkMessages(messages: ChatCompletionRequest['messages']): void {
  const calls = new Set<string>();
  messages.forEach((message, i) => {
    const hasCalls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
    if (hasCalls && message.role !== 'assistant')
      throw invalid(`messages[${i}].tool_calls`, `Only an assistant message has tool_calls (messages[${i}] is ${message.role}).`);
    for (const call of message.tool_calls ?? []) calls.add(call.id);
    if (message.role !== 'tool') return;
    if (typeof message.tool_call_id !== 'string')
      throw invalid(`messages[${i}].tool_call_id`, `A tool message needs tool_call_id: the id of the tool call it answers.`);
    if (!calls.has(message.tool_call_id))
      throw invalid(`messages[${i}].tool_call_id`, `messages[${i}] answers tool call ${message.tool_call_id}, which no assistant message before it made.`);
  });
}

/** Reads and checks what the request asks of its answer (a 422 `invalid_params` names the field). */
export function chatAsk(b: ChatCompletionRequest): ChatAsk {
  if (b.stream_options !== undefined && b.stream_options !== null && b.stream !== true)
    throw invalid('stream_options', 'stream_options is only allowed when stream is true.');
  if (b.max_tokens != null && b.max_completion_tokens != null && b.max_tokens !== b.max_completion_tokens) {
    throw invalid('max_completion_tokens', 'max_tokens and max_completion_tokens disagree: give one of them.');
  }
  checkMessages(b.messages);
  const tools = toolsByName(b.tools ?? []);
  const format = b.response_format?.type ?? 'text';
  const schema = b.response_format?.type === 'json_schema' ? (b.response_format.json_schema.schema ?? {}) : {};
  if (!isPlainObject(schema)) throw invalid('response_format.json_schema.schema', 'The schema must be an object.');
  const stop = b.stop == null ? [] : typeof b.stop === 'string' ? [b.stop] : b.stop;
  return { tools, forcedTool: forcedToolOf(b, tools), format, schema, maxTokens: b.max_completion_tokens ?? b.max_tokens ?? null, stop, n: b.n ?? 1 };
}
