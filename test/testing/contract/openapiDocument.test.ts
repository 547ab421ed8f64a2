/**
 * `GET /v1/openapi.json`: the document as generators read it (each answer's `content` holds the forms of one
 * schema) and, with `content=all`, as validators read it (every form of every answer in `content`).
 */
import { describe, expect, it } from 'vitest';
import openapi from '../../../openapi.json' with { type: 'json' };
import { Oz, InvalidParamsError } from '../../../src/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

type Json = Record<string, unknown>;
interface Response {
  content?: Record<string, { schema?: unknown }>;
  'x-oz-alternative-content'?: Record<string, { schema?: unknown }>;
}

/** Every response object of a document (operations' own and components'), by a readable name. */
function responses(doc: Json): Array<[string, Response]> {
  const out: Array<[string, Response]> = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses?: Record<string, Response & { $ref?: string }> }>>)) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, r] of Object.entries(op.responses ?? {})) if (!r.$ref) out.push([`${method} ${path} ${status}`, r]);
    }
  }
  for (const [name, r] of Object.entries((doc.components as { responses: Record<string, Response> }).responses)) out.push([name, r]);
  return out;
}

describe('GET /v1/openapi.json', () => {
  it('serves openapi.json as it is, each answer listing in content only forms of one schema', async () => {
    const server = createTestServer();
    const { status, body } = await callJson<Json>(server, 'GET', '/v1/openapi.json', { key: null });
    expect(status).toBe(200);
    expect(body).toEqual(openapi);
    const mixed = responses(body).filter(([, r]) => new Set(Object.values(r.content ?? {}).map((m) => JSON.stringify(m.schema))).size > 1);
    expect(mixed.map(([name]) => name)).toEqual([]);
    // The other forms are still described, beside content.
    const withMarkdown = responses(body).filter(([, r]) => r['x-oz-alternative-content']?.['text/markdown']);
    expect(withMarkdown.length).toBeGreaterThan(40);
  });

  it('with content=all merges every alternative form into content', async () => {
    const server = createTestServer();
    const { status, body } = await callJson<Json>(server, 'GET', '/v1/openapi.json?content=all', { key: null });
    expect(status).toBe(200);
    const all = responses(body);
    expect(all.filter(([, r]) => r['x-oz-alternative-content']).map(([name]) => name)).toEqual([]);
    for (const [name, primary] of responses(openapi as unknown as Json)) {
      const merged = all.find(([n]) => n === name)![1];
      const expected = [...Object.keys(primary.content ?? {}), ...Object.keys(primary['x-oz-alternative-content'] ?? {})];
      expect(Object.keys(merged.content ?? {}), name).toEqual(expected);
    }
    const item = all.find(([n]) => n === 'get /v1/companies/{campus}/items/{id} 200')![1];
    expect(Object.keys(item.content!)).toEqual(['application/json', 'text/yaml', 'text/markdown', 'text/plain']);
    const chat = all.find(([n]) => n === 'post /v1/chat/completions 200')![1];
    expect(Object.keys(chat.content!)).toEqual(['application/json', 'text/event-stream']);
  });

  it('answers 422 invalid_params for any other content value, naming the values it takes', async () => {
    const server = createTestServer();
    const res = await call(server, 'GET', '/v1/openapi.json?content=everything', { key: null });
    expect(res.status).toBe(422);
    expect(res.headers.get('x-error-code')).toBe('invalid_params');
    const { error } = (await res.json()) as ErrorBody;
    expect(error.message).toMatch(/content/);
    expect(error.message).toMatch(/primary.*all|all.*primary/);
  });

  it('reaches the SDK: meta.openapi({ content: "all" }) and a typed error for a wrong value', async () => {
    const server = createTestServer();
    const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch });
    const primary = await oz.meta.openapi();
    const all = await oz.meta.openapi({ content: 'all' });
    const alternatives = (doc: unknown) => responses(doc as Json).filter(([, r]) => r['x-oz-alternative-content']).length;
    expect(alternatives(primary)).toBeGreaterThan(40);
    expect(alternatives(all)).toBe(0);
    // @ts-expect-error: the type allows only the document's values
    await expect(oz.meta.openapi({ content: 'nope' })).rejects.toBeInstanceOf(InvalidParamsError);
  });
});
