// OpenTelemetry client spans, recorded by the OpenTelemetry SDK's in-memory exporter, against real HTTP.
import { readdirSync, readFileSync } from 'node:fs';
import { context, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AlwaysOffSampler, BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OzAPIError, OzStreamInterruptedError } from '../../../src/index.js';
import { envelope, fastClient, rejectionOf } from '../support/clients.js';
import { ScriptedServer, type ScriptedAnswer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite();
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const sse = { 'content-type': 'text/event-stream', 'x-execution-id': 'exe_s', 'x-request-id': 'req_s' };
const token = (delta: string) => `event: token\ndata: ${JSON.stringify({ delta })}\n\n`;
const traceparent = (span: ReadableSpan) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

function register(): void {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

function unregister(): void {
  trace.disable();
  context.disable();
}

beforeEach(() => exporter.reset());
afterAll(() => unregister());

describe('OpenTelemetry spans (a tracer provider registered)', () => {
  beforeAll(register);

  it('one client span per call, named by its operation id, with the HTTP attributes, the ids, and traceparent on the wire', async () => {
    server.answer({ headers: { 'x-request-id': 'req_7', 'x-execution-id': 'exe_7' }, body: envelope('hi', 'exe_7', 'req_7') });
    await fastClient(server).tools.execute('echo', { text: 'hi' }, { idempotencyKey: 'exe_7' });
    const [span] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(span!.name).toBe('executeTool');
    expect(span!.kind).toBe(2); // SpanKind.CLIENT
    expect(span!.attributes).toEqual({
      'http.request.method': 'POST',
      'url.full': `${server.url}/v1/tools/echo/execute`,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.url).port),
      'oz.operation_id': 'executeTool',
      'oz.trace_id': 'exe_7',
      'http.response.status_code': 200,
      'oz.request_id': 'req_7',
      'oz.execution_id': 'exe_7',
      'oz.retry_count': 0,
    });
    expect(span!.status.code).toBe(0); // UNSET
    expect(server.requests[0]!.headers.traceparent).toBe(traceparent(span!));
  });

  it('an event per retry, the retry count, the same span on every attempt, and a child of the active span', async () => {
    server.answer(
      { status: 429, headers: { 'retry-after': '0', 'x-error-code': 'rate_limited' }, body: { error: { code: 'rate_limited', message: 'slow down' } } },
      { destroy: true },
      { body: envelope('ok') },
    );
    const parent = provider.getTracer('app').startSpan('handler');
    await context.with(trace.setSpan(context.active(), parent), () => fastClient(server).tools.execute('echo', { text: 'x' }));
    parent.end();
    const call = exporter.getFinishedSpans().find((s) => s.name === 'executeTool')!;
    expect(call.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(call.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(call.events.map((e) => [e.name, e.attributes?.['oz.retry.attempt'], e.attributes?.['oz.retry.reason']])).toEqual([
      ['retry', 1, '429 rate_limited'],
      ['retry', 2, 'OzConnectionError'],
    ]);
    expect(call.attributes['oz.retry_count']).toBe(2);
    expect(call.attributes['http.request.resend_count']).toBe(2);
    expect(server.requests.map((r) => r.headers.traceparent)).toEqual([traceparent(call), traceparent(call), traceparent(call)]);
  });

  it('a lost answer recovered through the execution record is one span (the polls are part of it)', async () => {
    let posts = 0;
    server.fallback = (request): ScriptedAnswer => {
      if (request.method === 'POST') {
        posts += 1;
        if (posts === 1) return { destroy: true };
        return { status: 409, headers: { 'x-error-code': 'duplicate_execution_id' }, body: { error: { code: 'duplicate_execution_id', message: 'used' } } };
      }
      const record = {
        id: 'exe_lost',
        kind: 'tool',
        target: 'echo',
        status: 'succeeded',
        content: 'hi',
        error: null,
        workflow_id: null,
        task_id: null,
        cost_usd: 0,
        created_at: 'x',
        updated_at: 'x',
        finished_at: 'x',
      };
      return { headers: { 'x-request-id': 'req_rec' }, body: record };
    };
    const result = await fastClient(server).tools.execute('echo', { text: 'hi' }, { idempotencyKey: 'exe_lost' });
    expect(result.content).toBe('hi');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['executeTool']);
    expect(spans[0]!.events.map((e) => e.name)).toEqual(['retry']);
    expect(server.requests.map((r) => r.headers.traceparent)).toEqual(server.requests.map(() => traceparent(spans[0]!)));
  });

  it('a failed call: status ERROR, error.type the error code, the status code and the exception recorded', async () => {
    server.answer({
      status: 424,
      headers: { 'x-request-id': 'req_9', 'x-error-code': 'connection_required' },
      body: { error: { code: 'connection_required', message: 'link crm first' } },
    });
    const error = await rejectionOf(fastClient(server).tools.execute('crm_lookup', {}));
    expect(error).toBeInstanceOf(OzAPIError);
    const [span] = exporter.getFinishedSpans();
    expect(span!.status).toEqual({ code: 2, message: (error as Error).message });
    expect(span!.attributes).toMatchObject({ 'error.type': 'connection_required', 'http.response.status_code': 424, 'oz.request_id': 'req_9' });
    expect(span!.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('a stream’s span lasts until the stream ends, with an event when it is interrupted', async () => {
    server.answer({ headers: sse, parts: [{ data: token('a') }, { delayMs: 30, data: token('b') }], cutAfterParts: true });
    const stream = await fastClient(server).agents.execute({ agent: 'writer', user_request: 'hi', stream: true });
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    const error = await rejectionOf(
      (async () => {
        for await (const event of stream) void event;
      })(),
    );
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('executeAgent');
    expect(span!.attributes).toMatchObject({ 'oz.execution_id': 'exe_s', 'oz.request_id': 'req_s', 'http.response.status_code': 200 });
    expect(span!.events.map((e) => e.name)).toEqual(['stream.interrupted', 'exception']);
    expect(span!.events[0]!.attributes).toMatchObject({ 'error.type': 'OzStreamInterruptedError' });
    expect(span!.status.code).toBe(2);
  });

  it('a stream read to its closing event ends its span without an error', async () => {
    const result = `event: result\ndata: ${JSON.stringify(envelope('a', 'exe_s'))}\n\n`;
    server.answer({ headers: sse, body: token('a') + result });
    const stream = await fastClient(server).agents.execute({ agent: 'writer', user_request: 'hi', stream: true });
    await stream.finalResult();
    const [span] = exporter.getFinishedSpans();
    expect(span!.status.code).toBe(0);
    expect(span!.events).toEqual([]);
  });
});

describe('without a registered tracer provider', () => {
  beforeAll(unregister);

  it('sends no traceparent and records nothing', async () => {
    server.answer({ body: envelope('ok') });
    await fastClient(server).tools.execute('echo', { text: 'x' });
    expect(server.requests[0]!.headers.traceparent).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('a tracer that samples nothing still propagates the trace: traceparent with the parent’s trace id, not sampled', async () => {
    const remote = trace.wrapSpanContext({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 });
    trace.setGlobalTracerProvider(new BasicTracerProvider({ sampler: new AlwaysOffSampler(), spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    try {
      server.answer({ body: envelope('ok') });
      await context.with(trace.setSpan(context.active(), remote as Span), () => fastClient(server).tools.execute('echo', { text: 'x' }));
      expect(server.requests[0]!.headers.traceparent).toMatch(new RegExp(`^00-${'a'.repeat(32)}-(?!${'b'.repeat(16)})[0-9a-f]{16}-00$`));
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      unregister();
    }
  });

  it('the sources import nothing of @opentelemetry (the API is found through its global registration)', () => {
    const files = readdirSync(new URL('../../../src', import.meta.url), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const importing = files.filter((f) =>
      /from '@opentelemetry|import\('@opentelemetry/.test(readFileSync(new URL(`../../../src/${f}`, import.meta.url), 'utf8')),
    );
    expect(files.length).toBeGreaterThan(20);
    expect(importing).toEqual([]);
  });
});
