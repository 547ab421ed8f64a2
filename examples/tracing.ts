/**
 * OpenTelemetry: with a tracer provider registered through `@opentelemetry/api`, every call is a client span
 * (named after its operation id, with the HTTP attributes, the request, execution and trace ids and the retry
 * count), each retry and stream interruption an event, and the W3C `traceparent` goes out on the request.
 * Without a registered provider the SDK does nothing at all (it never imports the API).
 *
 *   node --import tsx examples/tracing.ts
 *
 * It prints the spans an in-memory exporter received; in an application, register your exporter (OTLP...) instead.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });

// #region tracing
// Once, at start-up: the OpenTelemetry SDK and an exporter (npm install @opentelemetry/api @opentelemetry/sdk-trace-base).
const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

// Calls made inside your own span are its children; a 429 with Retry-After is retried (an event on the span).
server.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 0 });
await trace.getTracer('my-app').startActiveSpan('handle-request', async (span) => {
  await oz.tools.execute('echo', { text: 'traced' });
  span.end();
});

const call = exporter.getFinishedSpans().find((s) => s.name === 'executeTool')!;
console.log(call.name, call.attributes['http.request.method'], call.attributes['http.response.status_code']); // executeTool POST 200
console.log(call.attributes['oz.execution_id'], call.attributes['oz.request_id']); // exe_... req_...
console.log(
  call.events.map((e) => e.name),
  call.attributes['oz.retry_count'],
); // [ 'retry' ] 1
// The server got the span's context: traceparent = 00-<trace id>-<span id>-01.
console.log(server.journal.filter('executeTool').at(-1)!.headers['traceparent'] === `00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`); // true
// #endregion
await server.close();
