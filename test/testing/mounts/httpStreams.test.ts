/**
 * Event streams over the HTTP mount, read by raw `node:http` clients on 127.0.0.1: backpressure (a slow reader
 * keeps the server's buffer bounded, the run waits, every event still arrives in order), the events of one turn
 * in one write, pings on an idle stream on the real and a frozen clock, and a client gone freeing the stream.
 */
import { request, ServerResponse, type IncomingMessage } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it, vi } from 'vitest';
import type { OzServer, OzServerOptions } from '../../../src/testing/index.js';
import type { ServerClock } from '../../../src/testing/time/clock.js';
import { testServersForSuite } from '../../support/ozServer.js';

const servers = testServersForSuite();

/** A raw stream request: the response as Node gives it (nothing reads it until the test does). */
function openStream(url: string, apiKey: string, body: Record<string, unknown>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    });
    req.once('response', resolve).once('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Collects a response's text as it flows. */
function collect(res: IncomingMessage): { text: () => string; ended: Promise<void> } {
  const chunks: string[] = [];
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    res
      .once('end', resolve)
      .once('error', reject)
      .once('aborted', () => reject(new Error('aborted')));
  });
  return { text: () => chunks.join(''), ended };
}

function parse(text: string): { events: EventSourceMessage[]; comments: string[] } {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e), onComment: (c) => comments.push(c.trim()) });
  parser.feed(text);
  return { events, comments };
}

/** Waits (a turn at a time, polling every 20 ms) until `check` holds; fails after `limit` polls. */
async function until(check: () => boolean, what: string, limit = 500): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

/** Waits until `value` stops changing over `polls` polls 50 ms apart (the sockets' buffers are full). */
async function settled(value: () => number, polls = 6): Promise<void> {
  let last = -1;
  let same = 0;
  while (same < polls) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = value();
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

const TOKEN = 'x'.repeat(4095) + ' ';
const TOKEN_COUNT = 4096;

function floodServer(): OzServer {
  // 16 MiB of tokens with no pause between them: far more than the kernel's socket buffers on loopback hold.
  const server = servers.create({ timing: { tokenMs: 0 } });
  server.addAgent({ name: 'flood', handler: () => 'flood', tokens: () => Array.from({ length: TOKEN_COUNT }, () => TOKEN) });
  return server;
}

/** A server with an agent `held` that answers (one closing event, no tokens) after `ms` of the server clock. */
function heldServer(options: OzServerOptions, ms: number): OzServer {
  const server = servers.create(options);
  server.addAgent({
    name: 'held',
    streaming: false,
    handler: async (_input, ctx) => {
      await ctx.sleep(ms);
      return 'done';
    },
  });
  return server;
}

/** A server with an agent `burst` that streams 200 tokens with no pause between them. */
function burstServer(options: OzServerOptions): OzServer {
  const server = servers.create({ ...options, timing: { tokenMs: 0, ...options.timing } });
  server.addAgent({ name: 'burst', handler: () => 'burst', tokens: () => Array.from({ length: 200 }, (_, i) => `t${i} `) });
  return server;
}

describe('event streams over HTTP', () => {
  it('a slow reader holds the run back, not the server memory; every event still arrives in order', async () => {
    const server = floodServer();
    const listener = await server.listen();
    const write = vi.spyOn(ServerResponse.prototype, 'write');
    try {
      const res = await openStream(listener.url, server.apiKey, { agent: 'flood', user_request: 'x', stream: true });
      const id = res.headers['x-execution-id'] as string;
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      // The reader reads nothing: once the client's and the server's socket buffers are full, the server holds at
      // most its bound (the response's writable length stays at its high-water mark plus one flush).
      res.pause();
      await settled(() => res.socket.bytesRead);
      expect(server.getExecution(id)!.status).toBe('running');
      expect(res.socket.bytesRead).toBeLessThan(TOKEN_COUNT * TOKEN.length);
      const responses = new Set(write.mock.contexts as ServerResponse[]);
      expect(responses.size).toBe(1);
      const [outgoing] = [...responses];
      expect(outgoing!.writableLength).toBeLessThanOrEqual(outgoing!.writableHighWaterMark + 2 * 64 * 1024 + 8 * 1024);
      // Read it all now: every token in order, then the result.
      const body = collect(res);
      res.resume();
      await body.ended;
      const { events } = parse(body.text());
      const tokens = events.filter((e) => e.event === 'token');
      expect(tokens).toHaveLength(TOKEN_COUNT);
      expect(tokens.every((e) => (JSON.parse(e.data) as { delta: string }).delta === TOKEN)).toBe(true);
      expect(events.at(-1)!.event).toBe('result');
      expect(server.getExecution(id)!.status).toBe('succeeded');
      // Coalesced: 4,096 token events left in far fewer writes (the bound's worth at a time).
      expect(write.mock.calls.length).toBeLessThan(TOKEN_COUNT / 8);
    } finally {
      write.mockRestore();
    }
  });

  it('writes the events of one turn in one write: a burst of 200 tokens in a handful of writes', async () => {
    const server = burstServer({});
    const listener = await server.listen();
    const write = vi.spyOn(ServerResponse.prototype, 'write');
    try {
      const res = await openStream(listener.url, server.apiKey, { agent: 'burst', user_request: 'x', stream: true });
      const body = collect(res);
      await body.ended;
      const { events } = parse(body.text());
      expect(events.filter((e) => e.event === 'token').map((e) => (JSON.parse(e.data) as { delta: string }).delta)).toEqual(
        Array.from({ length: 200 }, (_, i) => `t${i} `),
      );
      expect(events.at(-1)!.event).toBe('result');
      expect(write.mock.calls.length).toBeGreaterThan(0);
      expect(write.mock.calls.length).toBeLessThan(10);
    } finally {
      write.mockRestore();
    }
  });

  it('arms one ping timer per stream, not one per event', async () => {
    const server = burstServer({ timing: { pingMs: 15_000 } });
    const listener = await server.listen();
    const timer = vi.spyOn(server.clock as ServerClock, 'timer');
    const res = await openStream(listener.url, server.apiKey, { agent: 'burst', user_request: 'x', stream: true });
    const body = collect(res);
    await body.ended;
    expect(parse(body.text()).events).toHaveLength(201);
    expect(timer.mock.calls.filter(([ms]) => ms === 15_000)).toHaveLength(1);
  });

  it('pings an idle stream at the configured interval on the real clock', async () => {
    const server = heldServer({ timing: { pingMs: 20 } }, 300);
    const listener = await server.listen();
    const res = await openStream(listener.url, server.apiKey, { agent: 'held', user_request: 'x', stream: true });
    const body = collect(res);
    await body.ended;
    const { events, comments } = parse(body.text());
    // 300 ms of quiet at one ping per 20 ms: several pings (not a timing figure: at least 3 on any machine).
    expect(comments.filter((c) => c === 'ping').length).toBeGreaterThanOrEqual(3);
    expect(events.map((e) => e.event)).toEqual(['result']);
  });

  it('pings an idle stream on a frozen clock as the test advances it', async () => {
    const server = heldServer({ clock: { frozen: true }, timing: { pingMs: 1000 } }, 60_000);
    const listener = await server.listen();
    const res = await openStream(listener.url, server.apiKey, { agent: 'held', user_request: 'x', stream: true });
    expect(res.statusCode).toBe(200);
    const body = collect(res);
    const pings = () => parse(body.text()).comments.filter((c) => c === 'ping').length;
    await server.clock.advance(999);
    await server.clock.advance(1);
    await until(() => pings() === 1, 'the first ping');
    await server.clock.advance(1000);
    await until(() => pings() === 2, 'the second ping');
    await server.clock.advance(60_000);
    await body.ended;
    const { events } = parse(body.text());
    expect(events.map((e) => e.event)).toEqual(['result']);
    // 60 more seconds passed in one advance: a ping for each second of quiet, then the result.
    expect(pings()).toBeGreaterThanOrEqual(2);
  });

  it('a client that goes away stops the stream and frees its ping timer; the run goes on', async () => {
    const server = heldServer({ timing: { pingMs: 60_000 } }, 60_000);
    const listener = await server.listen();
    const clock = server.clock as ServerClock;
    const before = clock.pending;
    const res = await openStream(listener.url, server.apiKey, { agent: 'held', user_request: 'x', stream: true });
    const id = res.headers['x-execution-id'] as string;
    // The run's sleep and the stream's ping timer.
    await until(() => clock.pending === before + 2, 'the run and its stream armed their timers');
    res.destroy();
    await until(() => clock.pending === before + 1, 'the stream freed its ping timer');
    await server.clock.advance(60_000);
    await server.idle();
    expect(server.getExecution(id)!.status).toBe('succeeded');
  });
});
