import { createHash } from 'node:crypto';
import type { ChatCompletionRequest, ChatTool } from '../../../generated/types.js';
import type { ChatReply } from '../../pipeline/stubs/chatScript.js';
import { lastUserText } from '../../pipeline/stubs/chatScript.js';
import { tokenize } from '../../support/tokenize.js';
import type { ChatAsk } from './chatRequest.js';
import { schemaSample } from './schemaSample.js';

/** One tool call of an answer: its id, the function's name, its arguments as a JSON text. */
export interface PlannedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** What one choice answers: content as its tokens, or tool calls. */
export type ChoicePlan =
  | { readonly kind: 'text'; readonly tokens: readonly string[]; readonly finish: 'stop' | 'length' }
  | { readonly kind: 'tools'; readonly calls: readonly PlannedCall[] };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A tool call's id, the same for the same request, choice and call (`call_` and 24 letters or digits). */
function callId(seed: string, choice: number, call: number): string {
  const digest = createHash('sha256').update(`${seed}\u0000${choice}\u0000${call}`).digest();
  let id = 'call_';
  for (let i = 0; i < 24; i++) id += ALPHABET[digest[i]! % 62];
  return id;
}

/** The content without a script: the echo, or JSON as `response_format` asks. */
function defaultContent(ask: ChatAsk, body: ChatCompletionRequest, model: string): string {
  const echo = `Hello from ${model}. You said: ${lastUserText(body as unknown as Record<string, unknown>)}`;
  if (ask.format === 'json_object') return JSON.stringify({ content: echo });
  if (ask.format === 'json_schema') return JSON.stringify(schemaSample(ask.schema, 'response_format.json_schema.schema'));
  return echo;
}

/** Content as a choice gives it: ended before the first stop sequence, then cut at the most tokens. */
function textPlan(text: string, ask: ChatAsk): ChoicePlan {
  const stopAt = Math.min(...ask.stop.map((s) => text.indexOf(s)).filter((at) => at >= 0), text.length);
  const all = tokenize(text.slice(0, stopAt));
  const tokens = ask.maxTokens === null ? all : all.slice(0, ask.maxTokens);
  return { kind: 'text', tokens, finish: tokens.length < all.length ? 'length' : 'stop' };
}

/** The call of a forced tool without a script: arguments valid against its `parameters`. */
function forcedCall(tool: ChatTool, body: ChatCompletionRequest): { name: string; arguments: string } {
  const index = (body.tools ?? []).indexOf(tool);
  const parameters = tool.function.parameters ?? { type: 'object', properties: {} };
  return { name: tool.function.name, arguments: JSON.stringify(schemaSample(parameters, `tools[${index}].function.parameters`)) };
}

/**
 * Every choice's answer: the scripted reply when a stub gave one, else oz-chat's own (a call of the forced tool, or
 * the content `response_format` asks for). The same request gets the same answer, tool call ids included, whether
 * it streams or not.
 */
export function choicePlans(ask: ChatAsk, body: ChatCompletionRequest, model: string, scripted: ChatReply | null): ChoicePlan[] {
  let calls: ReadonlyArray<{ name: string; arguments: string }> | null = null;
  if (scripted?.toolCalls) calls = scripted.toolCalls.map((call) => ({ name: call.name, arguments: JSON.stringify(call.arguments ?? {}) }));
  else if (!scripted && ask.forcedTool) calls = [forcedCall(ask.forcedTool, body)];
  if (calls) {
    const made = calls;
    // Only tool calls need the seed (their ids). Streamed or not, the same question gets the same answer.
    const { stream: _stream, stream_options: _options, ...asked } = body;
    const seed = JSON.stringify(asked);
    return Array.from({ length: ask.n }, (_, choice): ChoicePlan => ({
      kind: 'tools',
      calls: made.map((call, i) => ({ id: callId(seed, choice, i), ...call })),
    }));
  }
  const plan = textPlan(scripted?.content ?? defaultContent(ask, body, model), ask);
  return Array.from({ length: ask.n }, () => plan);
}

/** The completion tokens of a choice (a tool call's name and arguments counted as words). */
export function planTokens(plan: ChoicePlan): number {
  if (plan.kind === 'text') return plan.tokens.length;
  return plan.calls.reduce((n, call) => n + 1 + tokenize(call.arguments.replace(/[{}[\],:"]/g, ' ')).length, 0);
}
