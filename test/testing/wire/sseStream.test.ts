/**
 * The event stream against a sink the test holds: its buffer stays within `SSE_BUFFER_LIMIT` while the sink is
 * full (the producer waits on `ready()`), a cut ends the sink after what was sent, taps get every byte.
 */
import { describe, expect, it } from 'vitest';
import { ServerClock } from '../../../src/testing/time/clock.js';
import { SSE_BUFFER_LIMIT, type SseSink } from '../../../src/testing/wire/sseSink.js';
import { SseStream } from '../../../src/testing/wire/sseStream.js';

/** A sink that takes what it is given and says it is full until the test drains it. */
class HeldSink implements SseSink {
  readonly writes: string[] = [];
  ended: { cut: boolean } | null = null;
  full = true;

  write(text: string): boolean {
    this.writes.push(text);
    return !this.full;
  }

  end(cut: boolean): void {
    this.ended = { cut };
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('SseStream', () => {
  it('holds at most its bound for a full sink: the producer waits, then every event goes out in order', async () => {
    const stream = new SseStream(null, { clock: new ServerClock({ frozen: true }), pingMs: 0 });
    const sink = new HeldSink();
    stream.attach(sink);
    const data = 'y'.repeat(1000);
    let produced = 0;
    let largest = 0;
    const producing = (async () => {
      for (; produced < 1000; produced++) {
        stream.send('token', `${produced}:${data}`);
        largest = Math.max(largest, stream.buffered);
        const behind = stream.ready();
        if (behind) await behind;
      }
      stream.close();
    })();
    for (let i = 0; i < 5; i++) await turn();
    // One flush went to the sink (it said full); the next events wait up to the bound, and the producer with them.
    expect(sink.writes).toHaveLength(1);
    expect(produced).toBeLessThan(200);
    expect(stream.buffered).toBeGreaterThanOrEqual(SSE_BUFFER_LIMIT);
    expect(largest).toBeLessThan(SSE_BUFFER_LIMIT + 1100);
    sink.full = false;
    stream.drain();
    await producing;
    expect(largest).toBeLessThan(SSE_BUFFER_LIMIT + 1100);
    expect(sink.ended).toEqual({ cut: false });
    const ids = sink.writes
      .join('')
      .split('\n\n')
      .filter(Boolean)
      .map((event) => Number(/data: (\d+):/.exec(event)![1]));
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('a cut ends the sink, without the body end, after the events sent before it; taps get the same bytes', async () => {
    const stream = new SseStream(null, { clock: new ServerClock({ frozen: true }), pingMs: 0, cutAfter: 2 });
    const tap = new Response(stream.tap()).text();
    const sink = new HeldSink();
    sink.full = false;
    stream.send('token', 'a');
    stream.send('token', 'b');
    stream.send('token', 'c');
    expect(stream.isOpen).toBe(false);
    stream.attach(sink);
    expect(sink.writes).toEqual(['event: token\ndata: a\n\nevent: token\ndata: b\n\n']);
    expect(sink.ended).toEqual({ cut: true });
    expect(await tap).toBe(sink.writes[0]);
  });

  it('an abort drops what waited, lets a waiting producer go on and frees the ping timer', async () => {
    const clock = new ServerClock({ frozen: true });
    const abort = new AbortController();
    const stream = new SseStream(abort.signal, { clock, pingMs: 1000 });
    expect(clock.pending).toBe(1);
    stream.send('token', 'z'.repeat(SSE_BUFFER_LIMIT));
    const behind = stream.ready();
    expect(behind).toBeInstanceOf(Promise);
    abort.abort();
    await behind;
    expect([stream.isOpen, stream.buffered, clock.pending]).toEqual([false, 0, 0]);
  });
});
