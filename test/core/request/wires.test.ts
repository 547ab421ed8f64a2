import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { Oz, OzError, OzUsageError, type Format } from '../../../src/index.js';
import { envelope, fastClient, KEY, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite();

const item = { id: 'itm_1', title: 'Ship it', created_at: '2026-11-21T12:00:00.000Z', tier: null };

describe('wire selection', () => {
  it.each([
    ['json', 'application/json'],
    ['yaml', 'text/yaml'],
    ['markdown', 'text/markdown'],
    ['text', 'text/plain'],
  ] as const)('format %s sends ?format= and its Accept', async (format, accept) => {
    server.answer({ headers: { 'content-type': accept }, body: format === 'json' ? JSON.stringify(envelope('x')) : 'x' });
    await fastClient(server).tools.execute('echo', { text: 'x' }, { format });
    expect(server.requests[0]!.query.get('format')).toBe(format);
    expect(server.requests[0]!.headers.accept).toBe(accept);
  });

  it('`format` wins over an Accept set as a default or per call header', async () => {
    server.answer({ headers: { 'content-type': 'text/yaml' }, body: 'ok: true\ncontent: hi\nexecution_id: exe_1\nrequest_id: req_1\n' });
    const client = new Oz({ baseURL: server.url, apiKey: KEY, defaultHeaders: { accept: 'text/markdown' } });
    const result = await client.tools.execute('echo', { text: 'hi' }, { format: 'yaml', headers: { accept: 'text/plain' } });
    expect(result).toEqual(envelope('hi'));
    expect(server.requests[0]!.query.get('format')).toBe('yaml');
    expect(server.requests[0]!.headers.accept).toBe('text/yaml');
  });

  it('without `format` sends no ?format= and asks for json, unless the caller set an Accept', async () => {
    server.answer({ body: envelope('hi') }, { headers: { 'content-type': 'text/plain' }, body: 'hi' });
    const client = fastClient(server);
    expect(await client.tools.execute('echo', { text: 'hi' })).toEqual(envelope('hi'));
    const viaAccept: unknown = await client.tools.execute('echo', { text: 'hi' }, { headers: { accept: 'text/plain' } });
    expect(viaAccept).toBe('hi');
    expect(server.requests.map((r) => [r.query.has('format'), r.headers.accept])).toEqual([
      [false, 'application/json'],
      [false, 'text/plain'],
    ]);
  });

  it('parses the yaml wire with JSON_SCHEMA (timestamps stay strings, null stays null)', async () => {
    server.answer({ headers: { 'content-type': 'text/yaml' }, body: 'id: itm_1\ntitle: Ship it\ncreated_at: 2026-11-21T12:00:00.000Z\ntier: null\n' });
    const got = await fastClient(server).companies.items.get('acme', 'itm_1', { format: 'yaml' });
    expect(got).toEqual(item);
  });

  it('answers markdown and text as strings, the markdown footer included', async () => {
    const markdown = '**hi**\n\n---\nexecution_id: exe_1\n';
    server.answer({ headers: { 'content-type': 'text/markdown' }, body: markdown }, { headers: { 'content-type': 'text/plain' }, body: '' });
    const client = fastClient(server);
    expect(await client.tools.execute('echo', { text: 'hi' }, { format: 'markdown' })).toBe(markdown);
    expect(await client.tools.execute('echo', { text: '' }, { format: 'text' })).toBe('');
  });

  it('answers an empty json body as undefined', async () => {
    server.answer({ status: 204 });
    expect(await fastClient(server).schedules.delete('sch_1')).toBeUndefined();
  });

  it('throws a typed error on a json answer that does not parse', async () => {
    server.answer({ headers: { 'content-type': 'application/json' }, body: '{"ok": tru' });
    const error = await rejectionOf(fastClient(server).tools.get('echo'));
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toMatch(/not valid JSON/);
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it('reads an MCP answer sent as one SSE message event', async () => {
    const answer = { jsonrpc: '2.0', id: 1, result: { tools: [] } };
    server.answer({ headers: { 'content-type': 'text/event-stream' }, body: `: ping\n\nevent: message\ndata: ${JSON.stringify(answer)}\n\n` });
    const got = await fastClient(server).mcp.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(got).toEqual(answer);
    expect(server.requests[0]!.headers.accept).toBe('application/json, text/event-stream');
  });
});

describe('async pointers (202) on every wire', () => {
  const pointer = { workflow_id: 'wfl_1', execution_id: 'exe_p', task_id: null, status: 'queued' };
  const lines = 'workflow_id: wfl_1\nexecution_id: exe_p\ntask_id: null\nstatus: queued\n';
  it.each([
    ['json', 'application/json', JSON.stringify(pointer)],
    ['yaml', 'text/yaml', lines],
    ['markdown', 'text/markdown', lines],
    ['text', 'text/plain', lines],
  ] as [Format, string, string][])('%s', async (format, contentType, body) => {
    server.answer({ status: 202, headers: { 'content-type': contentType, 'x-execution-id': 'exe_p' }, body });
    const got = await fastClient(server).workflows.execute({ workflow: { name: 'w', tasks: [] }, async: true }, { format });
    expect(got).toEqual(pointer);
  });

  it('a schedule run answers its pointer on the text wire', async () => {
    server.answer({ status: 202, headers: { 'content-type': 'text/plain' }, body: 'workflow_id: null\nexecution_id: exe_s\ntask_id: null\nstatus: running' });
    expect(await fastClient(server).schedules.run('sch_1', { format: 'text' })).toEqual({
      workflow_id: null,
      execution_id: 'exe_s',
      task_id: null,
      status: 'running',
    });
  });

  it('a 202 text body that is not a pointer is a clear error', async () => {
    server.answer({ status: 202, headers: { 'content-type': 'text/plain' }, body: 'accepted' });
    const error = await rejectionOf(fastClient(server).schedules.run('sch_1', { format: 'text' }));
    expect((error as Error).message).toMatch(/not an async pointer/);
  });
});

describe('YAML request bodies', () => {
  it('sends the body as text/yaml where the operation takes YAML, strings that look like dates quoted', async () => {
    server.answer({ status: 201, body: item }, { body: envelope('ok') });
    const client = fastClient(server);
    const body = { building: 'hq', title: '2026-11-21', body: 'line one\nline two: with colon', priority: 2 };
    await client.companies.items.create('acme', body, { bodyFormat: 'yaml' });
    const sent = server.requests[0]!;
    expect(sent.headers['content-type']).toBe('text/yaml');
    expect(load(sent.body)).toEqual(body); // read with the default schema: nothing turned into a Date
    await client.workflows.execute({ workflow: { name: 'w', tasks: [{ id: 'a', type: 'task', agent: 'writer' }] }, input: 'yes' }, { bodyFormat: 'yaml' });
    expect(load(server.requests[1]!.body)).toEqual({ workflow: { name: 'w', tasks: [{ id: 'a', type: 'task', agent: 'writer' }] }, input: 'yes' });
  });

  it('re-sends the same YAML bytes on a retry', async () => {
    server.answer({ status: 500, headers: { 'x-error-code': 'internal_error' } }, { body: envelope('ok') });
    await fastClient(server).tools.execute('echo', { text: 'ä: b' }, { bodyFormat: 'yaml' });
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
    expect(server.requests[1]!.headers['content-type']).toBe('text/yaml');
  });

  it('refuses a YAML body where the operation takes JSON only, before sending', async () => {
    const error = await rejectionOf(fastClient(server).chat.completions.create({ model: 'oz-chat', messages: [] }, { bodyFormat: 'yaml' }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/createChatCompletion .* does not take a YAML body/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a missing path parameter before sending', async () => {
    await expect(fastClient(server).tools.get('')).rejects.toBeInstanceOf(OzUsageError);
    expect(server.requests).toHaveLength(0);
  });
});
