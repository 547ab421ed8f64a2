/**
 * Parsing and iterating a 10,000-token server-sent event stream, from the same bytes in memory (cut in 16 KiB
 * chunks at fixed offsets, as a socket delivers them, events split across chunks), so that only the parsing is
 * measured. Like with like: every contender gets the same chunks through the body of a `Response` (as `fetch`
 * gives them) and must end with the same objects, each event's `data` as a JS object:
 * - an execute stream (`event: token` `{"delta"}` x N, then `event: result`) read by the SDK's `Stream`
 *   (`for await`), against eventsource-parser alone: a reader loop, `TextDecoder`, `createParser` and a
 *   `JSON.parse` of each event's data (the least a caller must do to get the same objects). The SDK reads a
 *   token's plain `{"delta":"..."}` (no escape in its text, as the service writes it) without `JSON.parse`: that
 *   is part of what is measured, and the row says so;
 * - a chat stream (OpenAI `chat.completion.chunk` data events, then `data: [DONE]`) read by the SDK's `Stream`
 *   in chat mode, against openai-node's `Stream.fromSSEResponse` on the same bytes.
 * The result is a throughput ratio: the anchor's time over ours (above 1: we are faster). Timed in this process's
 * CPU time (see `BenchClock`): all of the work is in this process, and the machine is shared.
 */
import { createParser } from 'eventsource-parser';
import { Stream as OpenAIStream } from 'openai/streaming';
import { compareLatency, medianRatio, quartiles, roundRatios } from '../latencyComparison.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, formatSpread, judged, type FigureRow } from '../figureRow.js';

const CHUNK_BYTES = 16 * 1024;

function tokenText(i: number): string {
  return `w${i % 1000} `;
}

/** The bytes of an execute stream of `tokens` token events and a closing result event. */
export function executeStreamBytes(tokens: number): Uint8Array {
  const parts: string[] = [];
  for (let i = 0; i < tokens; i++) parts.push(`event: token\ndata: ${JSON.stringify({ delta: tokenText(i) })}\n\n`);
  const result = { ok: true, content: '(the text)', execution_id: 'exe_0123456789abcdefghijklmnopqrstuv', request_id: 'req_0123456789abcdefghijklmn' };
  parts.push(`event: result\ndata: ${JSON.stringify(result)}\n\n`);
  return new TextEncoder().encode(parts.join(''));
}

/** The bytes of a chat stream as the embedded server sends it: a role chunk, `tokens` content chunks, a finish chunk, `[DONE]`. */
export function chatStreamBytes(tokens: number): Uint8Array {
  const base = { id: 'chatcmpl-0123456789abcdefghijklmn', object: 'chat.completion.chunk', created: 1795266845, model: 'oz-chat' };
  const chunk = (delta: Record<string, string>, finish: string | null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })}\n\n`;
  const parts = [chunk({ role: 'assistant', content: '' }, null)];
  for (let i = 0; i < tokens; i++) parts.push(chunk({ content: tokenText(i) }, null));
  parts.push(chunk({}, 'stop'), 'data: [DONE]\n\n');
  return new TextEncoder().encode(parts.join(''));
}

function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) chunks.push(bytes.subarray(at, at + CHUNK_BYTES));
  return chunks;
}

function bodyOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!);
      else controller.close();
    },
  });
}

function responseOf(chunks: readonly Uint8Array[]): Response {
  return new Response(bodyOf(chunks), { headers: { 'content-type': 'text/event-stream' } });
}

/**
 * The least an async iterator over eventsource-parser can do: events parsed into a queue per chunk, each handed
 * out by `next()` with its data parsed as JSON. No event types, no errors, no text kept, no idle timeout.
 */
function bareIterator(body: ReadableStream<Uint8Array>): AsyncIterableIterator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const queue: unknown[] = [];
  let head = 0;
  let ended = false;
  const parser = createParser({ onEvent: (event) => void queue.push(JSON.parse(event.data)) });
  return {
    async next(): Promise<IteratorResult<unknown>> {
      while (head >= queue.length) {
        if (ended) return { done: true, value: undefined };
        const { done, value } = await reader.read();
        queue.length = 0;
        head = 0;
        if (done) ended = true;
        else parser.feed(decoder.decode(value, { stream: true }));
      }
      return { done: false, value: queue[head++] };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

function expectCount(what: string, got: number, want: number): void {
  if (got !== want) throw new Error(`${what} read ${got} events, expected ${want}`);
}

export async function sseRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { Stream } = ctx.modules.sdk;
  const tokens = ctx.mode.sseTokens;
  const events = chunksOf(executeStreamBytes(tokens));
  const chat = chunksOf(chatStreamBytes(tokens));

  ctx.log(`sse: ${tokens} token events (SDK Stream vs eventsource-parser)`);
  const execute = await compareLatency(
    ctx.mode,
    [
      {
        name: 'sdk',
        fn: async () => {
          let count = 0;
          for await (const _ of new Stream<unknown>(responseOf(events), { mode: 'events' })) count++;
          expectCount('Stream', count, tokens + 1);
        },
      },
      {
        name: 'eventsource-parser',
        fn: async () => {
          let count = 0;
          const parser = createParser({
            onEvent: (event) => {
              JSON.parse(event.data);
              count++;
            },
          });
          const reader = responseOf(events).body!.getReader();
          const decoder = new TextDecoder();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            parser.feed(decoder.decode(value, { stream: true }));
          }
          expectCount('eventsource-parser', count, tokens + 1);
        },
      },
      {
        // Not an anchor: the least any async-iterable API costs over eventsource-parser (a bare iterator).
        name: 'for-await floor',
        fn: async () => {
          let count = 0;
          for await (const _ of bareIterator(responseOf(events).body!)) count++;
          expectCount('bare iterator', count, tokens + 1);
        },
      },
    ],
    'cpu',
  );

  ctx.log(`sse: ${tokens} chat chunks (SDK Stream vs openai-node Stream)`);
  const chunks = await compareLatency(
    ctx.mode,
    [
      {
        name: 'sdk',
        fn: async () => {
          let count = 0;
          for await (const _ of new Stream<unknown>(responseOf(chat), { mode: 'chat' })) count++;
          expectCount('Stream (chat)', count, tokens + 2);
        },
      },
      {
        name: 'openai',
        fn: async () => {
          let count = 0;
          for await (const _ of OpenAIStream.fromSSEResponse<unknown>(responseOf(chat), new AbortController())) count++;
          expectCount('openai Stream', count, tokens + 2);
        },
      },
    ],
    'cpu',
  );

  const smoke = ctx.mode.smoke;
  // Events per millisecond are thousands of events per second.
  const speed = (ms: number, n: number) => `${formatMs(ms)} (${Math.round(n / ms).toLocaleString('en')} k events/s)`;
  const vsParser = medianRatio(execute, 'eventsource-parser', 'sdk');
  const floor = medianRatio(execute, 'eventsource-parser', 'for-await floor');
  const vsOpenAI = medianRatio(chunks, 'openai', 'sdk');
  return [
    {
      name: FIGURE_NAMES.sseVsParser,
      ours: speed(execute.medianMs.get('sdk')!, tokens + 1),
      anchor: `eventsource-parser ${speed(execute.medianMs.get('eventsource-parser')!, tokens + 1)}; a bare for-await iterator over it: ${formatRatio(floor)} of its speed`,
      result: `${formatSpread(vsParser, quartiles(roundRatios(execute, 'eventsource-parser', 'sdk')))} of its speed`,
      target: '>= 0.80',
      met: judged(smoke, vsParser >= 0.8),
      how: `${tokens.toLocaleString('en')} token events + result, same bytes in 16 KiB chunks from a Response body, same objects out; Stream for-await (its own SSE parser; a token's plain {"delta":"..."} read without JSON.parse) vs reader+TextDecoder+createParser+JSON.parse of each event (a synchronous callback: no async step per event); process CPU time`,
    },
    {
      name: FIGURE_NAMES.sseVsOpenAI,
      ours: speed(chunks.medianMs.get('sdk')!, tokens + 2),
      anchor: `openai Stream ${speed(chunks.medianMs.get('openai')!, tokens + 2)}`,
      result: `${formatSpread(vsOpenAI, quartiles(roundRatios(chunks, 'openai', 'sdk')))} of its speed`,
      target: '>= 1.00',
      met: judged(smoke, vsOpenAI >= 1),
      how: `${tokens.toLocaleString('en')} chat.completion.chunk events + [DONE], same bytes; Stream (chat) vs openai/streaming Stream.fromSSEResponse; process CPU time`,
    },
  ];
}
