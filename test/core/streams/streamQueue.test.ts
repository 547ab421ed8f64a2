/**
 * A chunk holds many events, parsed at once and handed out one by one without an async step: what the stream
 * does with the events still waiting when something ends it.
 */
import { describe, expect, it } from 'vitest';
import {
  InvalidParamsError,
  OzAbortError,
  OzStreamEventTooLargeError,
  OzStreamProtocolError,
  OzUsageError,
  Stream,
  type ExecuteStreamEvent,
  type StreamOptions,
} from '../../../src/index.js';
import { chunkedResponse, errorEvent, rejectionOf, result, token } from '../support/sse.js';

// Every event of the stream in one chunk: all of them are parsed before the loop sees the first.
const ONE_CHUNK = [token('a'), token('b'), token('c'), result('abc')].join('');

function streamOf(chunks: string[], options: Partial<StreamOptions> = {}) {
  const { response, cancelled } = chunkedResponse(chunks);
  const ends: unknown[] = [];
  const stream = new Stream<ExecuteStreamEvent>(response, { mode: 'events', onEnd: (error) => ends.push(error), ...options });
  let isCancelled = false;
  void cancelled.then(() => (isCancelled = true));
  return { stream, cancelled, ends, isCancelled: () => isCancelled };
}

/** The events a loop reads before the stream throws, and what it throws. */
async function readToError(stream: Stream<ExecuteStreamEvent>): Promise<{ seen: ExecuteStreamEvent[]; error: unknown }> {
  const seen: ExecuteStreamEvent[] = [];
  const error = await rejectionOf(
    (async () => {
      for await (const event of stream) seen.push(event);
    })(),
  );
  return { seen, error };
}

describe('events queued from one chunk', () => {
  it('an abort hands out none of the queued events: the next read throws OzAbortError and the body is cancelled', async () => {
    const controller = new AbortController();
    const { stream, cancelled, ends } = streamOf([ONE_CHUNK, token('never')], { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ event: 'token', data: { delta: 'a' } });
    controller.abort();
    expect(await rejectionOf(iterator.next())).toBeInstanceOf(OzAbortError);
    await cancelled;
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(ends).toHaveLength(1);
    expect(ends[0]).toBeInstanceOf(OzAbortError);
  });

  it('an error event queued behind tokens throws its typed error after them, and nothing after it is handed out', async () => {
    const chunk = [token('a'), token('b'), errorEvent({ code: 'invalid_params', message: 'bad' }), token('after'), result('x')].join('');
    const { stream, cancelled, ends } = streamOf([chunk]);
    const { seen, error } = await readToError(stream);
    expect(seen.map((event) => (event.event === 'token' ? event.data.delta : event.event))).toEqual(['a', 'b']);
    expect(error).toBeInstanceOf(InvalidParamsError);
    await cancelled;
    expect(ends).toEqual([error]);
    expect(await rejectionOf(stream.finalText())).toBe(error);
  });

  it('breaking out with events still queued cancels the body at once and ends the stream once', async () => {
    const { stream, cancelled, ends, isCancelled } = streamOf([ONE_CHUNK]);
    for await (const event of stream) {
      expect(event).toEqual({ event: 'token', data: { delta: 'a' } });
      break;
    }
    await cancelled;
    expect(isCancelled()).toBe(true);
    expect(ends).toHaveLength(1);
    expect(ends[0]).toBeInstanceOf(OzUsageError);
    await stream.close();
    expect(ends).toHaveLength(1);
  });

  it('receivedText holds the text handed out, not the text of events still queued', async () => {
    const { stream } = streamOf([ONE_CHUNK]);
    const texts: (string | undefined)[] = [];
    for await (const _ of stream) texts.push(stream.receivedText);
    expect(texts).toEqual(['a', 'ab', 'abc', 'abc']);
  });

  it('checkItem failing on a queued event ends the stream with its error after the events before it', async () => {
    const refused = new Error('refused');
    const checkItem = (item: unknown) => {
      if ((item as ExecuteStreamEvent).event === 'token' && (item as { data: { delta: string } }).data.delta === 'b') throw refused;
    };
    const { stream, cancelled, ends } = streamOf([ONE_CHUNK], { checkItem });
    const { seen, error } = await readToError(stream);
    expect(error).toBe(refused);
    expect(seen).toHaveLength(1);
    await cancelled;
    expect(ends).toEqual([refused]);
  });

  it('a broken event queued behind tokens is an OzStreamProtocolError after them', async () => {
    const { stream } = streamOf([`${token('a')}event: token\ndata: {"delta":"b"\n\n${result('x')}`]);
    const { seen, error } = await readToError(stream);
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(OzStreamProtocolError);
  });

  it('events complete before an oversized one in the same chunk are handed out, then OzStreamEventTooLargeError', async () => {
    const big = `event: token\ndata: {"delta":"${'x'.repeat(200)}"}\n\n`;
    const { stream, cancelled } = streamOf([`${token('a')}${token('b')}${big}${result('x')}`], { maxEventBytes: 100 });
    const { seen, error } = await readToError(stream);
    expect(seen).toHaveLength(2);
    expect(error).toBeInstanceOf(OzStreamEventTooLargeError);
    expect((error as OzStreamEventTooLargeError).receivedText).toBe('ab');
    await cancelled;
  });

  it('the result event queued behind tokens ends the stream: the body is cancelled, finalResult answers', async () => {
    const { stream, cancelled, ends } = streamOf([`${ONE_CHUNK}${token('extra')}`, token('never')]);
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.event);
    expect(seen).toEqual(['token', 'token', 'token', 'result']);
    await cancelled;
    expect(ends).toEqual([undefined]);
    expect((await stream.finalResult()).content).toBe('abc');
  });
});
