/**
 * The ONLY way tests create an embedded Oz server: `createTestServer(options)` wraps `createOzServer` and
 * validates EVERY answer the server gives against openapi.json (status, content type, body on the json and
 * yaml wires, the shared renderings of errors on markdown and text, required headers, each SSE event's data
 * against the operation's `contentSchema`). A violation fails the test that caused it (see
 * `ozServerSetup.ts`, a vitest `setupFiles` entry that reads `violations.ts` and so loads none of this).
 *
 * Every future test of this repository that needs an Oz server must create it through `createTestServer`,
 * so that the whole suite keeps checking the server against the document.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import yaml from 'js-yaml';
import { afterEach } from 'vitest';
import openapi from '../../openapi.json' with { type: 'json' };
import { createOzServer, type OzServer, type OzServerOptions, type ResponseEvent } from '../../src/testing/index.js';
import { OPERATION_ERROR_CODES } from '../../src/generated/operationErrors.js';
import { validationView } from './openapiView.js';
import { addViolation, followCheck } from './violations.js';

export { takeViolations, type Violation } from './violations.js';

/** Whether openapi.json lists this code for the operation. */
function operationAnswers(operationId: string, code: string): boolean {
  const codes = (OPERATION_ERROR_CODES as Record<string, readonly string[] | undefined>)[operationId];
  return codes === undefined || codes.includes(code);
}

type Json = Record<string, unknown>;

interface ResponseSpec {
  description?: string;
  headers?: Record<string, { $ref?: string; required?: boolean; schema?: { type?: string; $ref?: string } }>;
  content?: Record<string, { schema?: Json }>;
}

const addFormats = ((formatsModule as unknown as { default?: typeof formatsModule }).default ?? formatsModule) as unknown as (ajv: Ajv2020) => void;

const DOC = validationView(openapi as unknown as Json) as Json & {
  paths: Record<string, Record<string, Json & { operationId?: string; security?: unknown[]; responses: Record<string, ResponseSpec & { $ref?: string }> }>>;
  components: Json & { responses: Record<string, ResponseSpec>; headers: Record<string, { required?: boolean; schema?: { type?: string } }> };
  'x-oz-preflight': ResponseSpec & { status: number };
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(DOC, 'openapi.json');

interface OpSpec {
  readonly id: string;
  readonly keyed: boolean;
  readonly responses: Record<string, ResponseSpec>;
}

function resolveResponse(r: ResponseSpec & { $ref?: string }): ResponseSpec {
  if (!r.$ref) return r;
  const name = r.$ref.split('/').pop()!;
  return DOC.components.responses[name]!;
}

const OPS = new Map<string, OpSpec>();
for (const item of Object.values(DOC.paths)) {
  for (const op of Object.values(item)) {
    if (typeof op !== 'object' || !op.operationId) continue;
    const responses: Record<string, ResponseSpec> = {};
    for (const [status, r] of Object.entries(op.responses)) responses[status] = resolveResponse(r);
    OPS.set(op.operationId, { id: op.operationId, keyed: (op.security ?? (DOC.security as unknown[])).length > 0, responses });
  }
}

const validators = new Map<string, ValidateFunction>();

function validatorFor(pointer: string, schema: Json): ValidateFunction {
  let v = validators.get(pointer);
  if (!v) {
    v =
      typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')
        ? ajv.getSchema(`openapi.json${schema.$ref}`)!
        : ajv.compile({ ...schema, $id: `inline:${pointer}` });
    if (!v) throw new Error(`no schema at ${pointer}`);
    validators.set(pointer, v);
  }
  return v;
}

function mediaType(value: string | null): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

function schemaErrors(v: ValidateFunction, value: unknown): string | null {
  if (v(value)) return null;
  return ajv.errorsText(v.errors, { separator: '; ' });
}

function headerType(spec: { $ref?: string; schema?: { type?: string } }): string | undefined {
  if (spec.$ref) return DOC.components.headers[spec.$ref.split('/').pop()!]?.schema?.type;
  return spec.schema?.type;
}

async function readSse(response: Response): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } catch {
    // A cut or aborted stream: what arrived is still checked.
  }
  return events;
}

/** What `checkResponse` reads of an answer: a server's `ResponseEvent`, or an answer received over the network. */
export type CheckedAnswer = Pick<ResponseEvent, 'operationId' | 'route' | 'response'> & {
  readonly request: { readonly signal: AbortSignal };
  readonly journal: { readonly fault: unknown };
};

/** Checks one answer against openapi.json; answers the problems found. */
export async function checkResponse(event: CheckedAnswer): Promise<string[]> {
  const problems: string[] = [];
  const res = event.response;
  const status = res.status;
  let spec: ResponseSpec | undefined;
  let keyed = false;
  let pointer: string;
  if (event.route === 'operation') {
    const op = OPS.get(event.operationId!);
    if (!op) return [`unknown operation ${event.operationId}`];
    keyed = op.keyed;
    spec = op.responses[String(status)];
    pointer = `${op.id}/${status}`;
    if (!spec) problems.push(`status ${status} is not described for ${op.id}`);
  } else if (event.route === 'preflight') {
    const preflight = DOC['x-oz-preflight'];
    spec = preflight;
    pointer = 'preflight';
    if (status !== preflight.status) problems.push(`preflight answered ${status}, not ${preflight.status}`);
  } else if (event.route === 'method_not_allowed') {
    spec = resolveResponse(DOC.paths['/v1/mcp']!.get!.responses['405']!);
    pointer = 'mcpNotAllowed/405';
    if (status !== 405) problems.push(`GET on the MCP URL answered ${status}, not 405`);
  } else {
    spec = DOC.components.responses.NotFound;
    pointer = 'NotFound';
    if (status !== 404) problems.push(`an unrouted request answered ${status}, not 404`);
  }
  if (!res.headers.get('x-request-id')) problems.push('no x-request-id header');
  if (status >= 400 && !res.headers.get('x-error-code')) problems.push('an error without X-Error-Code');
  // The code must be one openapi.json lists for the operation (x-oz-error-codes and the rules); an injected fault's
  // code is the test's choice, not the server's.
  const answered = res.headers.get('x-error-code');
  if (
    event.route === 'operation' &&
    status >= 400 &&
    answered &&
    event.journal.fault === null &&
    event.operationId &&
    !operationAnswers(event.operationId, answered)
  ) {
    problems.push(`${event.operationId} answered ${answered}, which is not in its x-oz-error-codes (nor implied by x-oz-error-code-rules)`);
  }
  if (status === 429 && !res.headers.get('retry-after')) problems.push('429 without Retry-After');
  if (!spec) return problems;

  for (const [name, h] of Object.entries(spec.headers ?? {})) {
    const value = res.headers.get(name);
    const optional = (h.$ref ? DOC.components.headers[h.$ref.split('/').pop()!] : h)?.required === false;
    const required = !optional && status < 300 && !name.toLowerCase().startsWith('retry-after') && (keyed || !name.toLowerCase().startsWith('x-ratelimit'));
    if (value === null) {
      if (required) problems.push(`missing header ${name}`);
      continue;
    }
    if (headerType(h) === 'integer' && !/^-?\d+$/.test(value)) problems.push(`header ${name} is not an integer: ${value}`);
  }

  const type = mediaType(res.headers.get('content-type'));
  if (!spec.content || Object.keys(spec.content).length === 0) {
    const text = await res.text();
    if (text.length) problems.push(`a body where none is described: ${text.slice(0, 80)}`);
    return problems;
  }
  const media = spec.content[type];
  if (!media?.schema) {
    problems.push(`content type ${type || '(none)'} is not described (${Object.keys(spec.content).join(', ')})`);
    await res.body?.cancel();
    return problems;
  }
  const schema = media.schema;
  const errorCode = res.headers.get('x-error-code');

  if (type === 'text/event-stream') {
    const contentSchema = schema.contentSchema as Json | undefined;
    const events = await readSse(res);
    if (!contentSchema) return problems;
    const ref = String(contentSchema.$ref ?? '');
    const v = validatorFor(`${pointer}/sse`, contentSchema);
    const chat = ref.endsWith('/ChatCompletionChunk');
    // A chat stream that fails mid-way (the embedded server's reset) ends with one `error` event, an error envelope.
    const chatFailed = chat && events[events.length - 1]?.event === 'error';
    for (const [i, e] of events.entries()) {
      if (chat && e.data === '[DONE]') continue;
      const chatError = chat && e.event === 'error';
      if (chatError && i !== events.length - 1) problems.push('a chat stream sends nothing after an error event');
      let data: unknown;
      try {
        data = JSON.parse(e.data);
      } catch {
        problems.push(`SSE event ${e.event ?? 'message'} data is not JSON: ${e.data.slice(0, 80)}`);
        continue;
      }
      const value = ref.endsWith('/ExecuteStreamEvent') ? { event: e.event, data } : data;
      const err = schemaErrors(chatError ? validatorFor('#/components/schemas/ErrorEnvelope', { $ref: '#/components/schemas/ErrorEnvelope' }) : v, value);
      if (err) problems.push(`SSE event ${e.event ?? 'message'}: ${err}`);
    }
    const complete = !event.request.signal.aborted && event.journal.fault === null;
    if (complete && ref.endsWith('/ExecuteStreamEvent')) {
      const closing = events.filter((e) => e.event === 'result' || e.event === 'error');
      if (closing.length !== 1 || events[events.length - 1] !== closing[0]) problems.push('an execute stream must end with exactly one result or error event');
    }
    if (complete && chat && !chatFailed && events[events.length - 1]?.data !== '[DONE]') problems.push('a chat stream must end with data: [DONE]');
    return problems;
  }

  const text = await res.text();
  let value: unknown = text;
  if (type === 'application/json') {
    try {
      value = JSON.parse(text);
    } catch {
      problems.push(`body is not JSON: ${text.slice(0, 80)}`);
      return problems;
    }
  } else if (type === 'text/yaml') {
    try {
      value = yaml.load(text, { schema: yaml.JSON_SCHEMA });
    } catch {
      problems.push(`body is not YAML: ${text.slice(0, 80)}`);
      return problems;
    }
  }
  const err = schemaErrors(validatorFor(`${pointer}/${type}`, schema), value);
  if (err) problems.push(`body (${type}): ${err}`);
  if (errorCode !== null && status >= 400) {
    if (typeof value === 'object' && value !== null) {
      const code = (value as { error?: { code?: unknown } }).error?.code;
      if (code !== errorCode) problems.push(`X-Error-Code ${errorCode} differs from error.code ${String(code)}`);
    } else if (type === 'text/markdown' && !text.startsWith(`# Error: ${errorCode}\n\n`)) {
      problems.push('a markdown error must start with "# Error: <code>" and a blank line');
    } else if (type === 'text/plain' && !text.startsWith(`${errorCode}: `)) {
      problems.push('a text error must start with "<code>: "');
    }
  }
  return problems;
}

function record(event: ResponseEvent): void {
  const task = checkResponse(event).then(
    (problems) => {
      if (problems.length) {
        addViolation({ operationId: event.operationId, method: event.journal.method, path: event.journal.path, status: event.response.status, problems });
      }
    },
    (err: unknown) => {
      addViolation({
        operationId: event.operationId,
        method: event.journal.method,
        path: event.journal.path,
        status: event.response.status,
        problems: [`validator crashed: ${String(err)}`],
      });
    },
  );
  followCheck(task);
}

/**
 * A fresh embedded Oz server whose every answer is validated against openapi.json. Tests must create servers
 * only through this function (or a suite's {@link testServersForSuite}).
 */
export function createTestServer(options?: OzServerOptions): OzServer {
  const server = createOzServer(options);
  server.onResponse(record);
  return server;
}

/**
 * The server set-up of a suite whose tests make their own servers: `servers.create(options)` is
 * {@link createTestServer}, and every server made through it is closed after its test, with every listener it
 * opened (one `afterEach`, registered here; not for `describe.concurrent` suites, whose tests end at other times).
 */
export function testServersForSuite(): { create(options?: OzServerOptions): OzServer } {
  const made: OzServer[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((server) => server.close()));
  });
  return {
    create(options) {
      const server = createTestServer(options);
      made.push(server);
      return server;
    },
  };
}
