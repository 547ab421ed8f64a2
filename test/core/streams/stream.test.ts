import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ApprovalRequiredError,
  ConnectionRequiredError,
  Http5xxError,
  InvalidParamsError,
  OzConnectionError,
  OzStreamIdleTimeoutError,
  OzStreamInterruptedError,
  OzStreamProtocolError,
  OzUsageError,
  RateLimitedError,
  Stream,
  type ChatCompletionChunk,
  type ExecuteStreamEvent,
} from '../../../src/index.js';
import {
  chunk,
  chunkEvent,
  chunkedResponse,
  collect,
  DONE,
  envelope,
  errorEvent,
  EXECUTION_ID,
  REQUEST_ID,
  rejectionOf,
  result,
  splitAt,
  step,
  token,
  utf8,
} from '../support/sse.js';

const events = (chunks: (string | Uint8Array)[], options: Parameters<typeof chunkedResponse>[1] = {}, idleTimeout?: number) => {
  const { response, cancelled } = chunkedResponse(chunks, options);
  return { stream: new Stream<ExecuteStreamEvent>(response, { mode: 'events', idleTimeout }), cancelled };
};
const chat = (chunks: (string | Uint8Array)[], options: Parameters<typeof chunkedResponse>[1] = {}) => {
  const { response, cancelled } = chunkedResponse(chunks, { headers: { 'x-execution-id': '' }, ...options });
  return { stream: new Stream<ChatCompletionChunk>(response, { mode: 'chat' }), cancelled };
};

describe('Stream of an execute stream', () => {
  it('yields typed token, step and result events, skips unknown event kinds, and closes the body at the result', async () => {
    const { stream, cancelled } = events([
      step('draft', 'started'),
      token('Hel'),
      'event: progress\ndata: {"pct": 50}\n\ndata: {"untitled": true}\n\n',
      token('lo'),
      step('draft', 'succeeded'),
      result('Hello'),
    ]);
    expect(await collect(stream)).toEqual([
      { event: 'step', data: { task_id: 'draft', status: 'started' } },
      { event: 'token', data: { delta: 'Hel' } },
      { event: 'token', data: { delta: 'lo' } },
      { event: 'step', data: { task_id: 'draft', status: 'succeeded' } },
      { event: 'result', data: envelope('Hello') },
    ]);
    await cancelled;
    expect(stream.receivedText).toBe('Hello');
  });

  it('gives the same events and text however the bytes are split (multibyte characters, CRLF, comments, a BOM)', async () => {
    const text = ['Grüße ', '🙂 ', 'naïve ', '日本語'];
    const wire = `\uFEFF: hello\r\n\r\n${text.map(token).join(': ping\n\n').replace(/\n/g, '\r\n')}${result(text.join(''))}`;
    const bytes = utf8(wire);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), async (cuts) => {
        const { stream } = events(splitAt(bytes, cuts));
        const deltas = await collect(stream.textDeltas());
        expect(deltas).toEqual(text);
        expect(await stream.finalResult()).toEqual(envelope(text.join('')));
      }),
      { numRuns: 150 },
    );
  });

  it('strips a BOM split byte by byte across the first chunks', async () => {
    const { stream } = events([new Uint8Array([0xef]), new Uint8Array([0xbb]), new Uint8Array([0xbf]), token('a') + result('a')]);
    expect((await collect(stream)).map((e) => e.event)).toEqual(['token', 'result']);
  });

  it('skips comment lines, with or without a space', async () => {
    const { stream } = events([': ping\n\n', ':keepalive\n', token('a'), ': ping\n\n', result('a')]);
    expect((await collect(stream)).map((e) => e.event)).toEqual(['token', 'result']);
  });

  it('reads multi-line data fields as one JSON document', async () => {
    const { stream } = events(['event: token\ndata: {"delta":\ndata:  "x"}\n\n', result('x')]);
    expect((await collect(stream))[0]).toEqual({ event: 'token', data: { delta: 'x' } });
  });

  it.each([
    ['invalid_params', 422, InvalidParamsError, { missing: ['text'] }],
    ['approval_required', 409, ApprovalRequiredError, {}],
    ['connection_required', 424, ConnectionRequiredError, { connect: { provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' } }],
    ['rate_limited', 429, RateLimitedError, {}],
    ['something_new', 500, Http5xxError, {}],
  ] as const)('an `error` event with code %s throws its typed error from the loop, after the events before it', async (code, status, Class, extra) => {
    const { stream, cancelled } = events([token('par'), errorEvent({ code, message: `failed: ${code}`, ...extra }), token('never')]);
    const seen: ExecuteStreamEvent[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of stream) seen.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({ status, code, executionId: EXECUTION_ID, requestId: REQUEST_ID, message: `${status} ${code}: failed: ${code}`, ...extra });
    expect(seen).toEqual([{ event: 'token', data: { delta: 'par' } }]);
    await cancelled;
    expect(await rejectionOf(stream.finalResult())).toBe(error);
  });

  it('an `error` event without an error object, or data that is not JSON, throws OzStreamProtocolError', async () => {
    const bad = events([token('a'), 'event: error\ndata: {"oops": 1}\n\n']);
    expect(await rejectionOf(collect(bad.stream))).toBeInstanceOf(OzStreamProtocolError);
    await bad.cancelled;
    const notJson = events(['event: token\ndata: {delta: x}\n\n']);
    const error = await rejectionOf(collect(notJson.stream));
    expect(error).toBeInstanceOf(OzStreamProtocolError);
    expect(error).toMatchObject({ event: 'token', data: '{delta: x}' });
    const notObject = events(['event: token\ndata: [1, 2]\n\n']);
    expect(await rejectionOf(collect(notObject.stream))).toBeInstanceOf(OzStreamProtocolError);
  });

  it('a body cut before the closing event throws OzStreamInterruptedError with the execution id and the text so far', async () => {
    const { stream } = events([token('Hel'), token('lo'), 'event: tok'], { cut: true });
    const error = await rejectionOf(collect(stream));
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    expect(error).toBeInstanceOf(OzConnectionError);
    expect(error).toMatchObject({ executionId: EXECUTION_ID, requestId: REQUEST_ID, receivedText: 'Hello' });
    expect((error as Error).message).toContain(`client.executions.wait('${EXECUTION_ID}')`);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('a body that ends cleanly without a closing event is an interruption too', async () => {
    const { stream } = events([token('a'), 'event: result\ndata: {"ok": true'], {});
    const error = await rejectionOf(stream.finalText());
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    expect(error).toMatchObject({ receivedText: 'a' });
  });

  it('a stalled body ends with OzStreamIdleTimeoutError after idleTimeout, and is cancelled', async () => {
    const { stream, cancelled } = events([token('so far')], { stall: true }, 30);
    const error = await rejectionOf(collect(stream));
    expect(error).toBeInstanceOf(OzStreamIdleTimeoutError);
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    expect(error).toMatchObject({ idleTimeout: 30, executionId: EXECUTION_ID, receivedText: 'so far' });
    await cancelled;
  });

  it('rejects an idleTimeout that is not a positive number', () => {
    for (const idleTimeout of [0, -1, Number.NaN]) {
      expect(() => new Stream(new Response(''), { mode: 'events', idleTimeout })).toThrow(OzUsageError);
    }
    expect(() => new Stream(new Response(''), { mode: 'events', idleTimeout: Infinity })).not.toThrow();
  });

  it('gives the response metadata', () => {
    const { stream } = events([]);
    expect(stream.executionId).toBe(EXECUTION_ID);
    expect(stream.requestId).toBe(REQUEST_ID);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
    const bare = new Stream(new Response(''), { mode: 'events' });
    expect([bare.executionId, bare.requestId]).toEqual([null, null]);
  });
});

describe('Stream helpers', () => {
  const wire = [step('t', 'started'), token('one '), token(''), token('two'), step('t', 'succeeded'), result('one two')];

  it('textDeltas() gives only the non-empty deltas; finalResult() and finalText() then answer at once', async () => {
    const { stream } = events(wire);
    expect(await collect(stream.textDeltas())).toEqual(['one ', 'two']);
    expect(await stream.finalResult()).toEqual(envelope('one two'));
    expect(await stream.finalText()).toBe('one two');
  });

  it('finalResult() alone reads the stream to its end', async () => {
    const { stream, cancelled } = events(wire);
    expect(await stream.finalResult()).toEqual(envelope('one two'));
    await cancelled;
    expect(stream.receivedText).toBe('one two');
  });

  it('finalText() waits for the loop that reads the stream', async () => {
    const { stream } = events(wire);
    const iterator = stream[Symbol.asyncIterator]();
    const text = stream.finalText();
    const seen = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) seen.push(next.value.event);
    expect(seen).toHaveLength(6);
    expect(await text).toBe('one two');
  });

  it('receivedText grows as deltas arrive', async () => {
    const { stream } = events(wire);
    const texts: (string | undefined)[] = [];
    for await (const _ of stream) texts.push(stream.receivedText);
    expect(texts).toEqual(['', 'one ', 'one ', 'one two', 'one two', 'one two']);
  });

  it('keeps no text with retainText: false', async () => {
    const { response } = chunkedResponse([token('a')], { cut: true });
    const stream = new Stream<ExecuteStreamEvent>(response, { mode: 'events', retainText: false });
    expect(stream.receivedText).toBeUndefined();
    await expect(stream.finalText()).rejects.toBeInstanceOf(OzUsageError);
    const error = await rejectionOf(collect(stream));
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    expect((error as OzStreamInterruptedError).receivedText).toBeUndefined();
  });

  it('is read once; a second loop, or a result after breaking out, is a usage error', async () => {
    const { stream, cancelled } = events(wire);
    for await (const _ of stream) break;
    await cancelled;
    await expect(collect(stream)).rejects.toBeInstanceOf(OzUsageError);
    await expect(stream.finalResult()).rejects.toThrow(/closed before its end/);
    await expect(stream.finalText()).rejects.toBeInstanceOf(OzUsageError);
  });

  it('close() before reading cancels the body; close() during a read ends the loop quietly', async () => {
    const before = events(wire);
    await before.stream.close();
    await before.cancelled;
    await expect(collect(before.stream)).rejects.toThrow(/closed before it was read/);
    await expect(before.stream.finalResult()).rejects.toBeInstanceOf(OzUsageError);

    const during = events([token('a')], { stall: true });
    const seen: unknown[] = [];
    const loop = (async () => {
      for await (const event of during.stream) {
        seen.push(event);
        setTimeout(() => void during.stream.close(), 5);
      }
    })();
    await loop;
    await during.cancelled;
    expect(seen).toHaveLength(1);
  });

  it('toReadableStream() writes normalized SSE that a new Stream reads back', async () => {
    const { stream } = events([': ping\n\n', ...wire]);
    const readable = stream.toReadableStream();
    const copy = new Stream<ExecuteStreamEvent>(new Response(readable), { mode: 'events' });
    expect(await collect(copy)).toEqual([
      { event: 'step', data: { task_id: 't', status: 'started' } },
      { event: 'token', data: { delta: 'one ' } },
      { event: 'token', data: { delta: '' } },
      { event: 'token', data: { delta: 'two' } },
      { event: 'step', data: { task_id: 't', status: 'succeeded' } },
      { event: 'result', data: envelope('one two') },
    ]);
  });

  it('toReadableStream() writes a closing error as an error event, and errors the readable on an interruption', async () => {
    const failing = events([token('a'), errorEvent({ code: 'invalid_params', message: 'bad', missing: ['x'] })]);
    const text = await new Response(failing.stream.toReadableStream()).text();
    expect(text).toBe(`${token('a')}${errorEvent({ code: 'invalid_params', message: 'bad', missing: ['x'], execution_id: undefined })}`);
    const again = new Stream<ExecuteStreamEvent>(new Response(text), { mode: 'events' });
    expect(await rejectionOf(collect(again))).toBeInstanceOf(InvalidParamsError);

    const cut = events([token('a')], { cut: true });
    expect(await rejectionOf(new Response(cut.stream.toReadableStream()).text())).toBeInstanceOf(OzStreamInterruptedError);
  });

  it('cancelling the readable of toReadableStream() closes the stream', async () => {
    const { stream, cancelled } = events([token('a')], { stall: true });
    const reader = stream.toReadableStream().getReader();
    await reader.read();
    await reader.cancel();
    await cancelled;
  });

  it('tee() gives two streams with every event; the connection closes when both are done', async () => {
    // The body stays open after the result, so only the branches' cancels can close it.
    const { stream, cancelled } = events(wire, { stall: true });
    const [left, right] = stream.tee();
    let closed = false;
    void cancelled.then(() => (closed = true));
    for await (const _ of left) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(closed).toBe(false);
    expect(await collect(right.textDeltas())).toEqual(['one ', 'two']);
    expect(await right.finalResult()).toEqual(envelope('one two'));
    await cancelled;
    expect([left.executionId, right.executionId]).toEqual([EXECUTION_ID, EXECUTION_ID]);
  });

  it('tee() only before reading; the split stream itself cannot be read', async () => {
    const { stream } = events(wire);
    const [left] = stream.tee();
    expect(() => stream.tee()).toThrow(OzUsageError);
    await expect(collect(stream)).rejects.toBeInstanceOf(OzUsageError);
    await expect(stream.finalResult()).rejects.toBeInstanceOf(OzUsageError);
    await collect(left);
    expect(() => left.tee()).toThrow(OzUsageError);
  });
});

describe('Stream of a chat completion', () => {
  it('yields OpenAI chunks until [DONE], and gives the text of choices[0].delta.content', async () => {
    const { stream, cancelled } = chat([
      chunkEvent(null),
      chunkEvent('Hi'),
      ': ping\n\n',
      chunkEvent(' there'),
      chunkEvent(null, 'stop'),
      DONE,
      chunkEvent('never'),
    ]);
    const chunks = await collect(stream);
    expect(chunks).toEqual([chunk(null), chunk('Hi'), chunk(' there'), chunk(null, 'stop')]);
    await cancelled;
    expect(await stream.finalText()).toBe('Hi there');
    await expect(stream.finalResult()).rejects.toBeInstanceOf(OzUsageError);
  });

  it('textDeltas() gives the contents', async () => {
    const { stream } = chat([chunkEvent('a'), chunkEvent(null), chunkEvent('b'), DONE]);
    expect(await collect(stream.textDeltas())).toEqual(['a', 'b']);
  });

  it('an error data event (OpenAI style) or an `error` event throws the typed error', async () => {
    const dataError = chat([chunkEvent('a'), `data: ${JSON.stringify({ error: { code: 'rate_limited', message: 'slow down', type: 'rate_limited' } })}\n\n`]);
    expect(await rejectionOf(collect(dataError.stream))).toBeInstanceOf(RateLimitedError);
    const typeOnly = chat([`data: ${JSON.stringify({ error: { message: 'boom', type: 'internal_error', code: null } })}\n\n`]);
    expect(await rejectionOf(collect(typeOnly.stream))).toMatchObject({ code: 'internal_error', status: 500 });
    const named = chat([errorEvent({ code: 'invalid_params', message: 'bad model' })]);
    expect(await rejectionOf(collect(named.stream))).toBeInstanceOf(InvalidParamsError);
  });

  it('a chat stream cut before [DONE] is an interruption carrying the text so far', async () => {
    const { stream } = chat([chunkEvent('par'), chunkEvent('tial')], { cut: true });
    const error = await rejectionOf(collect(stream));
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    expect(error).toMatchObject({ receivedText: 'partial', executionId: undefined });
  });

  it('toReadableStream() ends a chat stream with [DONE]', async () => {
    const { stream } = chat([chunkEvent('a'), DONE]);
    expect(await new Response(stream.toReadableStream()).text()).toBe(`${chunkEvent('a')}${DONE}`);
  });
});
