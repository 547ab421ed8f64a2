import { describe, expect, it } from 'vitest';
import { Oz } from '../../src/index.js';
import { KEY } from '../core/support/clients.js';
import { ScriptedServer } from '../core/support/scriptedServer.js';
import { operationCalls } from '../support/operationCalls.js';

// Every call is answered 400, so it ends at once (a typed error, ignored here): only what arrived is checked.
const server = ScriptedServer.forSuite(() => ({ status: 400, body: { error: { code: 'invalid_json', message: 'recorded' } } }));
const client = () => new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off', maxRetries: 0 });

describe('every parameter of every operation of openapi.json reaches the wire as given', () => {
  const operations = operationCalls();

  it('covers every operation of the document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
  });

  it.each(operations)('$id ($method $path) via client.$clientMethod', async (op) => {
    const values = op.sample();
    await Promise.resolve(op.call(client(), values)).catch(() => undefined);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.method).toBe(op.method);

    // Path parameters: the template with each value, once the sent path is decoded.
    let expectedPath = op.path;
    for (const p of op.pathParams) expectedPath = expectedPath.replace(`{${p.name}}`, values.path[p.name]!);
    expect(decodeURIComponent(sent.path)).toBe(expectedPath);

    for (const p of op.parameters) {
      if (p.in === 'query' && p.name === 'format') expect(sent.query.get('format'), 'format').toBe(values.options.format ?? null);
      else if (p.in === 'query') expect(sent.query.get(p.name), `query ${p.name}`).toBe(String(values.query[p.name]));
      else if (p.in === 'header' && p.name === 'x-trace-id') expect(sent.headers['x-trace-id'], p.name).toBe(values.options.idempotencyKey);
      else if (p.in === 'header') expect(sent.headers[p.name.toLowerCase()], `header ${p.name}`).toBe(values.options.headers?.[p.name]);
    }
    if (op.hasBody) expect(JSON.parse(sent.body)).toEqual(values.body);
    else expect(sent.body).toBe('');
  });
});
