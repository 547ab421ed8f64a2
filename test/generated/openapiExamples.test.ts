/**
 * openapi.json as generators and documentation tools read it: every operation described, an example for every
 * request body and main answer (each valid against its own schema, JSON Schema 2020-12), every schema a generator
 * would have to name named by the document, and every YAML media type the server reads.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import openapi from '../../openapi.json' with { type: 'json' };
import { withAllContent } from '../../src/testing/contract/documentContent.js';
import { createTestServer } from '../support/ozServer.js';

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
interface Operation {
  operationId: string;
  description?: string;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { $ref?: string; content?: Record<string, Media> }>;
}

// Every form of every answer, the alternatives (markdown, text, streams beside JSON) merged into `content`.
const doc = withAllContent(openapi as unknown as Json) as unknown as Json & {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, { content?: Record<string, Media> }> };
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ method: m, path, op: item[m]! })));

const addFormats = ((formatsModule as unknown as { default?: typeof formatsModule }).default ?? formatsModule) as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, 'openapi.json');

/** The errors of `value` against the schema at `pointer` (a JSON pointer into openapi.json), or `null`. */
function errorsAt(pointer: string, value: unknown): string | null {
  const validate = ajv.getSchema(`openapi.json#${pointer}`);
  if (!validate) throw new Error(`no schema at ${pointer}`);
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every media type object of the document with its JSON pointer. */
function mediaObjects(): Array<{ pointer: string; media: Media }> {
  const out: Array<{ pointer: string; media: Media }> = [];
  for (const { method, path, op } of operations) {
    const base = `/paths/${escape(path)}/${method}`;
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) out.push({ pointer: `${base}/requestBody/content/${escape(type)}`, media });
    for (const [status, r] of Object.entries(op.responses)) {
      for (const [type, media] of Object.entries(r.content ?? {})) out.push({ pointer: `${base}/responses/${status}/content/${escape(type)}`, media });
    }
  }
  for (const [name, r] of Object.entries(doc.components.responses)) {
    for (const [type, media] of Object.entries(r.content ?? {})) out.push({ pointer: `/components/responses/${name}/content/${escape(type)}`, media });
  }
  return out;
}

function sseEvents(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  parser.feed(text);
  return events;
}

/** The problems of one example of a media type object. */
function exampleProblems(pointer: string, media: Media, value: unknown): string[] {
  const problems: string[] = [];
  const err = errorsAt(`${pointer}/schema`, value);
  if (err) problems.push(`${pointer}: ${err}`);
  const contentSchema = media.schema?.contentSchema as { $ref?: string } | undefined;
  if (pointer.endsWith('text~1event-stream') && typeof value === 'string' && contentSchema?.$ref) {
    const events = sseEvents(value);
    if (events.length === 0) problems.push(`${pointer}: the stream example holds no event`);
    const perEvent = contentSchema.$ref.endsWith('/ExecuteStreamEvent');
    for (const e of events) {
      if (e.data === '[DONE]') continue;
      const data: unknown = JSON.parse(e.data);
      const eventErr = errorsAt(`${pointer}/schema/contentSchema`, perEvent ? { event: e.event, data } : data);
      if (eventErr) problems.push(`${pointer} event ${e.event ?? 'message'}: ${eventErr}`);
    }
  }
  return problems;
}

describe('openapi.json for generators and documentation', () => {
  it('describes every operation', () => {
    const missing = operations.filter(({ op }) => !op.description?.trim()).map(({ op }) => op.operationId);
    expect(missing).toEqual([]);
  });

  it('gives an example for every request body and every main answer', () => {
    const missing: string[] = [];
    for (const { op } of operations) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        if (media.example === undefined) missing.push(`${op.operationId} request ${type}`);
      }
      const main = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
      if (!main) {
        missing.push(`${op.operationId}: no 2xx answer`);
        continue;
      }
      const content = main[1].content ?? {};
      const primary = content['application/json'] ?? content['text/event-stream'];
      if (Object.keys(content).length > 0 && primary?.example === undefined) missing.push(`${op.operationId} answer ${main[0]}`);
      if (content['text/event-stream'] && content['text/event-stream'].example === undefined) missing.push(`${op.operationId} stream ${main[0]}`);
    }
    expect(missing).toEqual([]);
  });

  it('has only examples that are valid against their schemas (JSON Schema 2020-12)', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { pointer, media } of mediaObjects()) {
      if (media.example !== undefined) {
        problems.push(...exampleProblems(pointer, media, media.example));
        checked++;
      }
      for (const [name, ex] of Object.entries(media.examples ?? {})) {
        problems.push(...exampleProblems(`${pointer}`, media, ex.value).map((p) => `${p} (examples.${name})`));
        checked++;
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(80);
  });

  it('finds a wrong example (the check can fail)', () => {
    const pointer = '/paths/~1v1~1tools~1{tool}/get/responses/200/content/application~1json';
    expect(exampleProblems(pointer, {}, { name: 5 })).not.toEqual([]);
    const stream = '/paths/~1v1~1workflows~1execute-stream/post/responses/200/content/text~1event-stream';
    const media = doc.paths['/v1/workflows/execute-stream']!.post!.responses['200']!.content!['text/event-stream']!;
    expect(exampleProblems(stream, media, 'event: token\ndata: {"delta": 1}\n\n')).not.toEqual([]);
  });

  it('names every schema a generator would otherwise name: no inline object or composition member', () => {
    const inline: string[] = [];
    const walk = (node: unknown, pointer: string, top: boolean): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${pointer}/${i}`, false));
      const schema = node as Json;
      // A condition (`if`/`then`/`else`) only validates: generators make no type of it, so it needs no name.
      const conditional = /\/(if|then|else)$/.test(pointer);
      if (!top && !conditional && schema.properties) inline.push(`${pointer}: an inline object schema`);
      for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
        for (const [i, member] of ((schema[keyword] as Json[] | undefined) ?? []).entries()) {
          const primitive = !member.properties && !member.oneOf && !member.anyOf && !member.allOf && member.type !== 'object';
          if (!member.$ref && !primitive) inline.push(`${pointer}/${keyword}/${i}: an inline composition member`);
        }
      }
      for (const [k, v] of Object.entries(schema)) if (k !== 'example' && k !== 'examples') walk(v, `${pointer}/${k}`, false);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(schema, `/components/schemas/${name}`, true);
    walk(doc.paths, '/paths', false);
    expect(inline).toEqual([]);
  });

  it('gives the discriminator of a oneOf a named schema for each of its values', () => {
    const event = doc.components.schemas.ExecuteStreamEvent as { oneOf: Array<{ $ref: string }>; discriminator: { mapping: Record<string, string> } };
    expect(Object.values(event.discriminator.mapping).sort()).toEqual(event.oneOf.map((m) => m.$ref).sort());
  });

  it('routes a multi-segment proxy path sent as the document describes it (one percent-encoded segment) and raw', async () => {
    const server = createTestServer();
    try {
      const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
      const link = await server.fetch(`${server.url}/v1/connections/crm/link`, { method: 'POST', headers, body: JSON.stringify({ method: 'wallet' }) });
      expect(link.status).toBe(200);
      for (const path of ['contacts%2F123%2Fnotes', 'contacts/123/notes']) {
        const res = await server.fetch(`${server.url}/v1/proxy/crm/${path}`, { headers });
        expect(res.status, path).toBe(200);
        expect(((await res.json()) as { path: string }).path, path).toBe('/contacts/123/notes');
      }
    } finally {
      await server.close();
    }
  });

  it('lists every YAML media type the server reads on every request body that takes YAML, and the server reads each', async () => {
    const yamlTypes = ['text/yaml', 'application/yaml', 'application/x-yaml'];
    for (const { op } of operations) {
      const types = Object.keys(op.requestBody?.content ?? {});
      if (!types.some((t) => yamlTypes.includes(t))) continue;
      expect(types, op.operationId).toEqual(expect.arrayContaining(yamlTypes));
    }
    const server = createTestServer();
    try {
      for (const type of yamlTypes) {
        const res = await server.fetch(`${server.url}/v1/tools/echo/execute`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': type, accept: 'application/json' },
          body: 'text: hello from YAML\n',
        });
        expect(res.status, type).toBe(200);
        expect(((await res.json()) as { content: string }).content).toBe('hello from YAML');
      }
    } finally {
      await server.close();
    }
  });
});
