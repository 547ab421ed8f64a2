import { describe, expect, it } from 'vitest';
import { Oz, OzAbortError } from '../../../src/index.js';

const KEY = `ozk_${'a'.repeat(32)}`;
const tokens = Array.from({ length: 8 }, (_, i) => `event: token\ndata: {"delta":"t${i} "}\n\n`).join('');
const body = `${tokens}event: result\ndata: {"ok":true,"content":"done","execution_id":"exe_1","request_id":"req_1"}\n\n`;

describe('aborting a stream whose events arrived in one chunk', () => {
  it('hands out no event after the abort, not even one already received, and throws OzAbortError', async () => {
    // The whole stream in one chunk: every event is parsed before the loop sees the first one.
    const fetch = async () => new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-execution-id': 'exe_1' } });
    const oz = new Oz({ apiKey: KEY, baseURL: 'http://127.0.0.1:9', fetch, logLevel: 'off' });
    const controller = new AbortController();
    const stream = await oz.agents.execute({ agent: 'writer', user_request: 'x', stream: true }, { signal: controller.signal });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) {
        seen.push(event.event);
        if (seen.length === 2) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['token', 'token']);
    expect(error).toBeInstanceOf(OzAbortError);
  });
});
