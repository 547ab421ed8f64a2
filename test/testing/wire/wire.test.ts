import { afterEach, describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

async function echo(options: { query?: string; body?: Record<string, unknown> | string; headers?: Record<string, string> } = {}) {
  const res = await call(server, 'POST', `/v1/tools/echo/execute${options.query ?? ''}`, { body: options.body ?? { text: 'hello' }, headers: options.headers });
  return { res, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('wire selection (spec: body format or ?format=, then Accept, then Content-Type)', () => {
  it('every answer carries the negotiated wire: an error fault answers on the body format, as the handler would', async () => {
    server = createTestServer();
    expect((await echo({ body: { text: 'hello', format: 'yaml' } })).type).toMatch(/^text\/yaml/);
    server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', times: 3 });
    const json = await echo({ body: { text: 'hello', format: 'yaml' } });
    expect(json.res.status).toBe(500);
    expect(json.type).toMatch(/^text\/yaml/);
    expect(yaml.load(json.text)).toMatchObject({ error: { code: 'internal_error' } });
    const yamlBody = await echo({ body: 'text: hello\nformat: markdown\n', headers: { 'content-type': 'application/yaml' } });
    expect(yamlBody.type).toMatch(/^text\/markdown/);
    // A body format that is not a wire is passed over by the fault's answer (the fault answers, not the check).
    const bad = await echo({ body: { text: 'hello', format: 'xml' }, query: '?format=text' });
    expect(bad.res.status).toBe(500);
    expect(bad.type).toMatch(/^application\/json/);
  });

  it('answers json by default', async () => {
    server = createTestServer();
    const { type, text } = await echo();
    expect(type).toBe('application/json');
    expect(JSON.parse(text)).toMatchObject({ ok: true, content: 'hello' });
  });

  it('rule 1: format in the body, or ?format=, wins over Accept; the body wins over the query', async () => {
    server = createTestServer();
    expect((await echo({ body: { text: 'hello', format: 'text' }, headers: { accept: 'application/json' } })).type).toMatch(/^text\/plain/);
    expect((await echo({ query: '?format=yaml', headers: { accept: 'text/markdown' } })).type).toMatch(/^text\/yaml/);
    expect((await echo({ query: '?format=yaml', body: { text: 'hello', format: 'markdown' } })).type).toMatch(/^text\/markdown/);
  });

  it('rule 1: an explicit format outside the four answers 400 invalid_format, always as JSON, with the spec’s message', async () => {
    server = createTestServer();
    for (const variant of [
      { query: '?format=xml' },
      { body: { text: 'x', format: 'html' } },
      { query: '?format=xml', headers: { accept: 'text/yaml', 'content-type': 'text/yaml' }, body: 'text: x' },
      // The other one valid does not save it: a bad query beside a good body format, a bad body beside a good query.
      { query: '?format=xml', body: { text: 'x', format: 'yaml' } },
      { query: '?format=text', body: { text: 'x', format: 'xml' } },
    ]) {
      const { res, type, text } = await echo(variant);
      expect(res.status).toBe(400);
      expect(res.headers.get('x-error-code')).toBe('invalid_format');
      expect(type).toBe('application/json');
      expect(JSON.parse(text)).toEqual({ error: { code: 'invalid_format', message: 'format must be one of: json, yaml, markdown, text' } });
    }
    expect(server.journal.count({ operationId: 'executeTool', status: 200 })).toBe(0);
  });

  it('rule 2: the Accept entry with the highest q wins', async () => {
    server = createTestServer();
    expect((await echo({ headers: { accept: 'text/plain;q=0.5, text/markdown;q=0.9' } })).type).toMatch(/^text\/markdown/);
    expect((await echo({ headers: { accept: 'application/json;q=0.1, application/x-yaml' } })).type).toMatch(/^text\/yaml/);
  });

  it('rule 2: ties go to the first listed', async () => {
    server = createTestServer();
    expect((await echo({ headers: { accept: 'text/plain, text/markdown' } })).type).toMatch(/^text\/plain/);
    expect((await echo({ headers: { accept: 'text/markdown;q=0.8, text/plain;q=0.8' } })).type).toMatch(/^text\/markdown/);
  });

  it('rule 2: */* and unknown types are skipped, and Accept never causes a 400', async () => {
    server = createTestServer();
    expect((await echo({ headers: { accept: '*/*, text/markdown;q=0.1' } })).type).toMatch(/^text\/markdown/);
    expect((await echo({ headers: { accept: 'image/png, text/html;q=1' } })).type).toBe('application/json');
    const weird = await echo({ headers: { accept: ';;;, q=?, text/plain;q=abc' } });
    expect(weird.res.status).toBe(200);
    expect(weird.type).toMatch(/^text\/plain/);
    expect((await echo({ headers: { accept: 'text/plain;q=0' } })).type).toBe('application/json');
  });

  it('rule 3: a YAML request Content-Type answers yaml; anything else json', async () => {
    server = createTestServer();
    for (const ct of ['text/yaml', 'application/yaml', 'application/x-yaml; charset=utf-8']) {
      const { type, text } = await echo({ body: 'text: hello', headers: { 'content-type': ct } });
      expect(type).toMatch(/^text\/yaml/);
      expect(yaml.load(text, { schema: yaml.JSON_SCHEMA })).toMatchObject({ ok: true, content: 'hello' });
    }
    expect((await echo({ body: '{"text": "hi"}', headers: { 'content-type': 'text/plain' } })).type).toBe('application/json');
  });

  it('accepts a bare YAML body without a YAML Content-Type', async () => {
    server = createTestServer();
    const { res, text } = await echo({ body: 'text: bare yaml\n', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(text).content).toBe('bare yaml');
  });

  it('keeps YAML timestamps as strings (JSON schema)', async () => {
    server = createTestServer();
    const { text } = await echo({ body: 'text: 2026-11-21', headers: { 'content-type': 'text/yaml' } });
    expect(text).toContain('content: |-\n  2026-11-21\n');
  });

  it('renders the result on each wire as the brief says', async () => {
    server = createTestServer();
    const body = { text: 'line one\nline two' };
    const json = await echo({ body, query: '?format=json' });
    const id = json.res.headers.get('x-execution-id');
    expect(JSON.parse(json.text).content).toBe('line one\nline two');
    const y = await echo({ body, query: '?format=yaml' });
    expect(y.text).toMatch(/^ok: true\ncontent: \|-\n {2}line one\n {2}line two\nexecution_id: exe_\w+\nrequest_id: req_\w+\n$/);
    const md = await echo({ body, query: '?format=markdown' });
    expect(md.text).toBe(`line one\nline two\n\n---\nexecution_id: ${md.res.headers.get('x-execution-id')}\n`);
    const t = await echo({ body, query: '?format=text' });
    expect(t.text).toBe('line one\nline two');
    expect(id).toMatch(/^exe_/);
  });

  it('sends errors on the negotiated wire: yaml keeps every field', async () => {
    server = createTestServer();
    const { res, text } = await echo({ body: 'format: yaml', headers: { 'content-type': 'text/yaml' } });
    expect(res.status).toBe(422);
    expect(yaml.load(text, { schema: yaml.JSON_SCHEMA })).toEqual({
      error: { code: 'invalid_params', message: 'Missing required field: text.', missing: ['text'] },
    });
  });

  it('renders records on markdown as YAML lines and on text as key: value lines', async () => {
    server = createTestServer();
    const md = await call(server, 'GET', '/v1/tools/echo?format=markdown');
    expect(await md.text()).toMatch(/^name: echo\ndescription: Answers its text back.\ninput_schema:\n/);
    const text = await call(server, 'GET', '/v1/tools/echo?format=text');
    expect(await text.text()).toBe(
      'name: echo\ndescription: Answers its text back.\ninput_schema: {"type":"object","properties":{"text":{"type":"string","description":"The text to answer back."}},"required":["text"]}\nrequired: ["text"]\nconnection: null\n',
    );
  });

  it('puts x-request-id on every answer, errors and unknown routes included', async () => {
    server = createTestServer();
    for (const res of [await call(server, 'GET', '/health'), await call(server, 'GET', '/nope'), await call(server, 'GET', '/v1/tools', { key: null })]) {
      expect(res.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9]{24}$/);
    }
  });
});
