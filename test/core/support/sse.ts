/** Builders of server-sent event text and in-memory event-stream responses for the stream tests. */

export const EXECUTION_ID = 'exe_stream1';
export const REQUEST_ID = 'req_stream1';

/** The headers of an execute stream's answer. */
export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream',
  'x-execution-id': EXECUTION_ID,
  'x-request-id': REQUEST_ID,
};

export const token = (delta: string): string => `event: token\ndata: ${JSON.stringify({ delta })}\n\n`;
export const step = (taskId: string, status: 'started' | 'succeeded' | 'failed'): string =>
  `event: step\ndata: ${JSON.stringify({ task_id: taskId, status })}\n\n`;
export const envelope = (content: string) => ({ ok: true, content, execution_id: EXECUTION_ID, request_id: REQUEST_ID });
export const result = (content: string): string => `event: result\ndata: ${JSON.stringify(envelope(content))}\n\n`;
export const errorEvent = (error: Record<string, unknown>): string => `event: error\ndata: ${JSON.stringify({ error })}\n\n`;

/** An OpenAI chat chunk carrying `content`. */
export const chunk = (content: string | null, finish: 'stop' | null = null) => ({
  id: 'chatcmpl_1',
  object: 'chat.completion.chunk' as const,
  created: 1,
  model: 'oz-chat',
  choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
});
export const chunkEvent = (content: string | null, finish: 'stop' | null = null): string => `data: ${JSON.stringify(chunk(content, finish))}\n\n`;
export const DONE = 'data: [DONE]\n\n';

const encoder = new TextEncoder();

/** Splits bytes (or text) at the given offsets (sorted, deduplicated, inside the array). */
export function splitAt<T extends Uint8Array | string>(bytes: T, cuts: readonly number[]): T[] {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const parts: T[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    parts.push(bytes.slice(start, point) as T);
    start = point;
  }
  return parts;
}

/** Text as UTF-8 bytes. */
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/**
 * An in-memory event-stream response whose body hands out exactly these chunks, then ends (or, with `cut`,
 * fails like a connection closed under it; with `stall`, never ends). `cancelled` resolves when the body is
 * cancelled.
 */
export function chunkedResponse(
  chunks: (string | Uint8Array)[],
  options: { cut?: boolean; stall?: boolean; headers?: Record<string, string> } = {},
): { response: Response; cancelled: Promise<unknown> } {
  let onCancel!: (reason: unknown) => void;
  const cancelled = new Promise<unknown>((resolve) => (onCancel = resolve));
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (index < chunks.length) {
          const next = chunks[index++]!;
          controller.enqueue(typeof next === 'string' ? utf8(next) : next);
          return;
        }
        if (options.stall) return new Promise<void>(() => undefined);
        if (options.cut) controller.error(new TypeError('terminated', { cause: new Error('other side closed') }));
        else controller.close();
      },
      cancel(reason) {
        onCancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { response: new Response(body, { headers: { ...SSE_HEADERS, ...options.headers } }), cancelled };
}

/** Everything an async iterable gives. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

// One helper for both suites: the error a promise rejects with.
export { rejectionOf } from './clients.js';
