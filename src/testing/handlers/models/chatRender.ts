import type { ChatCompletion, ChatCompletionChunk } from '../../../generated/types.js';
import type { ChoicePlan } from './chatChoices.js';

type Delta = ChatCompletionChunk['choices'][number]['delta'];
type Finish = ChatCompletionChunk['choices'][number]['finish_reason'];

/** One chunk of a choice's stream: what it adds to the message, its finish reason on the last, and whether it paces. */
export interface ChunkStep {
  readonly delta: Delta;
  readonly finish: Finish;
  /** A piece of content or of arguments: sent on the token clock (the opening and closing chunks are not). */
  readonly paced: boolean;
}

/** How long a piece of a tool call's arguments is in a stream (OpenAI sends them in short pieces too). */
const ARGUMENT_PIECE = 8;

/** The choices of a completion, as OpenAI answers them. */
export function completionChoices(plans: readonly ChoicePlan[]): ChatCompletion['choices'] {
  return plans.map((plan, index) => {
    if (plan.kind === 'text') {
      return { index, message: { role: 'assistant', content: plan.tokens.join(''), refusal: null }, finish_reason: plan.finish, logprobs: null };
    }
    const toolCalls = plan.calls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } }));
    return { index, message: { role: 'assistant', content: null, refusal: null, tool_calls: toolCalls }, finish_reason: 'tool_calls', logprobs: null };
  });
}

function pieces(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += ARGUMENT_PIECE) out.push(text.slice(at, at + ARGUMENT_PIECE));
  return out;
}

/**
 * A choice's chunks in OpenAI's delta form: content token by token; or each tool call opened by a chunk with its
 * `index`, `id`, `type` and `function.name`, its arguments following in pieces; then the finish reason.
 */
export function chunkSteps(plan: ChoicePlan): ChunkStep[] {
  if (plan.kind === 'text') {
    return [
      { delta: { role: 'assistant', content: '' }, finish: null, paced: false },
      ...plan.tokens.map((token) => ({ delta: { content: token }, finish: null, paced: true })),
      { delta: {}, finish: plan.finish, paced: false },
    ];
  }
  const steps: ChunkStep[] = [];
  plan.calls.forEach((call, index) => {
    const opening = { index, id: call.id, type: 'function' as const, function: { name: call.name, arguments: '' } };
    steps.push({ delta: index === 0 ? { role: 'assistant', content: null, tool_calls: [opening] } : { tool_calls: [opening] }, finish: null, paced: false });
    for (const piece of pieces(call.arguments)) steps.push({ delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish: null, paced: true });
  });
  steps.push({ delta: {}, finish: 'tool_calls', paced: false });
  return steps;
}
