// A stream call is read by its operation's own stream reader (the generated table gives one to each streaming
// operation only); an operation without one is a typed error, not a crash and not an unread stream.
import { describe, expect, it } from 'vitest';
import { OzError } from '../../../src/core/errors/errors.js';
import type { Operation } from '../../../src/core/shared/operation.js';
import { Transport } from '../../../src/core/transport.js';
import { OPERATIONS } from '../../../src/generated/operations.js';
import { KEY, TRANSPORT_PARTS } from '../support/clients.js';

const events = () =>
  new Response('event: token\ndata: {"delta":"hi"}\n\nevent: result\ndata: {"ok":true,"content":"hi","execution_id":"exe_1"}\n\n', {
    headers: { 'content-type': 'text/event-stream' },
  });
const transport = () => new Transport({ baseURL: 'https://oz.example', apiKey: KEY, ...TRANSPORT_PARTS, logLevel: 'off', fetch: async () => events() });

describe("a stream call's reader", () => {
  it("is the operation's own: a streaming operation of the generated table answers a Stream", async () => {
    expect(typeof OPERATIONS.executeWorkflowStream.streamAnswer).toBe('function');
    expect('streamAnswer' in OPERATIONS.executeTool).toBe(false);
    const stream = await transport().stream<AsyncIterable<{ event: string }>>(OPERATIONS.executeWorkflowStream, { body: { tasks: [] } });
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.event);
    expect(seen).toEqual(['token', 'result']);
  });

  it('is missing from an operation that does not stream: an OzError naming the operation', async () => {
    const notStreaming: Operation = { ...OPERATIONS.executeTool, streaming: 'always' };
    const error = await transport()
      .stream(notStreaming, { path: { tool: 'echo' }, body: {} })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toBe('executeTool answers no event stream: its operation has no stream reader.');
  });
});
