/**
 * Response validation (`validate: 'off' | 'warn' | 'strict'`) against a scripted server that answers wrong
 * shapes: `strict` raises `OzResponseValidationError` (path, value, request id) on the json and yaml wires and in
 * streams, `warn` logs once per operation, `off` passes the answer through. Markdown and text answers are strings
 * and are not schema-validated.
 */
import { describe, expect, it } from 'vitest';
import { Oz, OzError, OzResponseValidationError, OzUsageError, type ExecuteStreamEvent } from '../../../src/index.js';
import { Transport } from '../../../src/core/transport.js';
import { OPERATIONS } from '../../../src/generated/operations.js';
import * as validators from '../../../src/generated/responseValidators.js';
import { KEY, recordingLogger, rejectionOf, TRANSPORT_PARTS } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite();

const tool = { name: 'echo', description: 'Echoes.', input_schema: { type: 'object' }, required: ['text'], connection: null };
const client = (options: ConstructorParameters<typeof Oz>[0] = {}) => new Oz({ baseURL: server.url, apiKey: KEY, maxRetries: 0, logLevel: 'off', ...options });
const answered = { 'x-request-id': 'req_bad' };

function sse(events: { event: string; data: unknown }[]): string {
  return events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
}

describe('validate: strict', () => {
  it('throws the typed error naming the path, the value and the request id (json wire)', async () => {
    server.answer({ headers: answered, body: { ...tool, name: 5 } });
    const error = await rejectionOf(client({ validate: 'strict' }).tools.get('echo'));
    expect(error).toBeInstanceOf(OzResponseValidationError);
    expect(error).toMatchObject({ code: 'response_validation_error', path: '$.name', value: 5, requestId: 'req_bad', operationId: 'getTool' });
  });

  it('names a missing required field with an undefined value', async () => {
    const { description: _gone, ...partial } = tool;
    server.answer({ headers: answered, body: partial });
    const error = await rejectionOf(client().tools.get('echo', { validate: 'strict' }));
    expect(error).toMatchObject({ path: '$.description', value: undefined, requestId: 'req_bad' });
  });

  it('checks the yaml wire, and a truncated YAML body is a typed error with the path', async () => {
    server.answer({
      headers: { ...answered, 'content-type': 'text/yaml' },
      body: 'name: echo\ndescription: Echoes.\ninput_schema: {}\nrequired: [text]\nconnection: 7\n',
    });
    expect(await rejectionOf(client({ validate: 'strict' }).tools.get('echo', { format: 'yaml' }))).toMatchObject({ path: '$.connection', value: 7 });
    server.answer({ headers: { ...answered, 'content-type': 'text/yaml' }, body: 'name: echo\ndescription: Echoes.\ninput_sch' });
    const truncated = await rejectionOf(client({ validate: 'strict' }).tools.get('echo', { format: 'yaml' }));
    expect(truncated).toBeInstanceOf(OzResponseValidationError);
    expect(truncated).toMatchObject({ requestId: 'req_bad' });
    expect((truncated as OzResponseValidationError).path).toMatch(/^\$/);
    server.answer({ headers: { ...answered, 'content-type': 'text/yaml' }, body: 'name: [echo\n  description: "Ech' });
    expect(await rejectionOf(client({ validate: 'strict' }).tools.get('echo', { format: 'yaml' }))).toMatchObject({ path: '$', requestId: 'req_bad' });
  });

  it('does not check markdown and text answers: they are strings', async () => {
    server.answer({ headers: { 'content-type': 'text/markdown' }, body: '# not a tool' }, { headers: { 'content-type': 'text/plain' }, body: 'nor this' });
    expect(await client({ validate: 'strict' }).tools.get('echo', { format: 'markdown' })).toBe('# not a tool');
    expect(await client({ validate: 'strict' }).tools.get('echo', { format: 'text' })).toBe('nor this');
  });

  it('lets unknown fields and unknown enum values through (forward compatible)', async () => {
    const at = '2026-11-23T00:00:00Z';
    const execution = {
      ...{ id: 'exe_1', kind: 'teleport', target: 'echo', status: 'paused', content: null, error: null, workflow_id: null, task_id: null },
      ...{ cost_usd: 0, created_at: at, updated_at: at, finished_at: null, future_field: { any: 1 } },
    };
    server.answer({ headers: answered, body: { data: [{ ...tool, shiny: true }], next_cursor: null } });
    expect((await client({ validate: 'strict' }).tools.list()).data[0]).toMatchObject({ shiny: true });
    server.answer({ headers: answered, body: execution });
    const validate = validators.getExecution_200 as (value: unknown) => boolean;
    expect(validate(execution), 'the record fits its schema but for the new values').toBe(true);
    expect(await client({ validate: 'strict' }).executions.get('exe_1')).toMatchObject({ status: 'paused', future_field: { any: 1 } });
  });

  it('checks every stream event: a wrong event ends the stream with the typed error', async () => {
    const events = sse([
      { event: 'token', data: { delta: 'he' } },
      { event: 'token', data: { delta: 42 } },
      { event: 'result', data: { ok: true, content: 'he', execution_id: 'exe_1', request_id: 'req_bad' } },
    ]);
    server.answer({ headers: { ...answered, 'content-type': 'text/event-stream' }, body: events });
    const stream = await client({ validate: 'strict' }).agents.execute({ agent: 'writer', user_request: 'hi', stream: true });
    const seen: ExecuteStreamEvent[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of stream) seen.push(event);
      })(),
    );
    expect(seen, String(error)).toHaveLength(1);
    expect(error).toMatchObject({ code: 'response_validation_error', path: '$.data.delta', value: 42, requestId: 'req_bad', operationId: 'executeAgent' });
  });

  it('comes back as a value from result()', async () => {
    server.answer({ headers: answered, body: { ...tool, required: 'text' } });
    const { data, error, response } = await client({ validate: 'strict' }).tools.get('echo').result();
    expect(data).toBeUndefined();
    expect(error?.code).toBe('response_validation_error');
    expect(response).toBeUndefined();
  });

  it("answers every operation's wrong shape with the typed error", async () => {
    const transport = new Transport({
      baseURL: server.url,
      apiKey: KEY,
      ...TRANSPORT_PARTS,
      logLevel: 'off',
      maxRetries: 0,
      validate: 'strict',
      loadValidators: async () => validators,
    });
    let checked = 0;
    for (const name of validators.VALIDATED_ANSWERS) {
      const [id, status] = name.split('_') as [keyof typeof OPERATIONS, string];
      if (status === 'event') continue;
      const validate = (validators as Record<string, unknown>)[name] as (value: unknown) => boolean;
      if (validate(12345)) continue; // an open schema: any JSON is its answer
      const op = OPERATIONS[id];
      const path = Object.fromEntries([...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1]!, 'x']));
      server.answer({ status: Number(status), headers: { ...answered, 'content-type': 'application/json' }, body: '12345' });
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : status === '202' ? { async: true } : {};
      const error = await rejectionOf(transport.request(op, { path, body }, {}));
      expect(error, name).toBeInstanceOf(OzResponseValidationError);
      expect(error, name).toMatchObject({ operationId: id, path: '$', value: 12345, requestId: 'req_bad' });
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });
});

describe('validate: warn', () => {
  it('logs the first mismatch of each operation once and passes the data through', async () => {
    const logger = recordingLogger();
    const oz = client({ validate: 'warn', logger, logLevel: 'warn' });
    server.answer(
      { headers: answered, body: { ...tool, name: 5 } },
      { headers: answered, body: { ...tool, name: 6 } },
      { headers: answered, body: { data: 'no', next_cursor: null } },
    );
    expect(await oz.tools.get('echo')).toMatchObject({ name: 5 });
    expect(await oz.tools.get('echo')).toMatchObject({ name: 6 });
    // A list answer whose `data` is no list is logged, then cannot be a page: the OzError naming what came.
    const notAPage = await rejectionOf(oz.tools.list());
    expect(notAPage).toBeInstanceOf(OzError);
    expect((notAPage as Error).message).toContain('is not a page');
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    expect(warnings.map((l) => l.message)).toEqual([expect.stringMatching(/getTool: .*\$\.name.*req_bad/), expect.stringMatching(/listTools: .*\$\.data/)]);
  });
});

describe('validate: off (the default)', () => {
  it('passes a wrong shape through untouched', async () => {
    server.answer({ headers: answered, body: { ...tool, name: 5 } }, { headers: answered, body: { ...tool, name: 5 } });
    expect(await client().tools.get('echo')).toMatchObject({ name: 5 });
    expect(await client({ validate: 'strict' }).tools.get('echo', { validate: 'off' })).toMatchObject({ name: 5 });
  });

  it('refuses an unknown mode as a usage error before sending', async () => {
    const error = await rejectionOf(client().tools.get('echo', { validate: 'loud' as 'warn' }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect(server.requests).toHaveLength(0);
  });
});
