/**
 * The MCP tools of the control plane are derived from its OpenAPI document: one per operation of the table, each
 * input schema the route's parameters beside its body's fields (references resolved), its output schema the
 * success answer's; a call's arguments become the route's request.
 */
import { describe, expect, it } from 'vitest';
import { CONTROL_OPENAPI } from '../../../src/testing/control/controlOpenapi.js';
import { CONTROL_TOOL_NAMES, controlRequest, controlTools, type ControlTool } from '../../../src/testing/control/controlTools.js';
import { OzMockError } from '../../../src/testing/index.js';

type Operation = { operationId: string; summary: string; 'x-oz-in-sessions'?: boolean; requestBody?: unknown };
const OPERATIONS = Object.entries(CONTROL_OPENAPI.paths as unknown as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
);
const schemas = CONTROL_OPENAPI.components.schemas as unknown as Record<string, { properties: Record<string, unknown>; required?: string[] }>;
const tool = (name: string): ControlTool => controlTools('server').find((t) => t.name === name)!;

function refused(run: () => unknown): OzMockError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(OzMockError);
    return err as OzMockError;
  }
  throw new Error('no error');
}

describe('the tools of the control plane', () => {
  it('are one per operation of the table, with its route and summary', () => {
    const tools = controlTools('server');
    expect(tools.map((t) => t.name)).toEqual(Object.values(CONTROL_TOOL_NAMES));
    for (const t of tools) {
      const found = OPERATIONS.find((o) => o.operation.operationId === t.operationId)!;
      expect(`/_oz${t.path}`).toBe(found.path);
      expect(t.method).toBe(found.method);
      expect(t.description).toBe(`${found.operation.summary} (${found.method} ${found.path})`);
      expect(t.inputSchema.type).toBe('object');
    }
  });

  it('take their input schema from the body schema of the document, references resolved', () => {
    const stubFields = schemas.StubSpec!.properties as Record<string, Record<string, unknown>>;
    expect(tool('add_stub').inputSchema.properties).toEqual({
      ...stubFields,
      answer: schemas.StubAnswer,
      answers: { ...stubFields.answers, items: schemas.StubAnswer },
    });
    expect(tool('add_stub').inputSchema.required).toEqual(schemas.StubSpec!.required);
    expect(tool('add_fault').inputSchema.properties).toEqual(schemas.FaultSpec!.properties);
    expect(tool('advance_clock').inputSchema).toMatchObject({
      required: ['ms'],
      additionalProperties: false,
      properties: { ms: { type: 'integer', minimum: 0 } },
    });
    expect(JSON.stringify(controlTools('server').map((t) => [t.inputSchema, t.outputSchema]))).not.toContain('$ref');
  });

  it('put path and query parameters beside the body fields, with their descriptions', () => {
    expect(tool('remove_stub').inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string', description: 'The stub id (stb_...).' } },
      required: ['id'],
      additionalProperties: false,
    });
    const journal = tool('read_journal').inputSchema;
    expect(Object.keys(journal.properties)).toEqual(['operationId', 'method', 'path', 'status', 'limit', 'account', 'header', 'body', 'format']);
    expect(journal.properties.limit).toEqual({ type: 'integer', minimum: 1, maximum: 10000, description: 'Only the newest N.' });
    expect(journal.required).toBeUndefined();
  });

  it('have the success answer as output schema, an allOf or oneOf of objects included', () => {
    expect(tool('list_unused').outputSchema).toMatchObject({ type: 'object', required: ['faults', 'stubs'] });
    expect(tool('add_fault').outputSchema).toMatchObject({ type: 'object', allOf: [{ required: ['type'] }, { required: ['id', 'remaining', 'hits'] }] });
    expect(tool('read_journal').outputSchema).toMatchObject({ type: 'object', oneOf: [{ required: ['data'] }, { required: ['log'] }] });
    expect(controlTools('server').every((t) => t.outputSchema?.type === 'object')).toBe(true);
  });

  it("of a session are the routes a session has: no sessions' own", () => {
    const names = controlTools('session').map((t) => t.name);
    expect(names).toContain('add_fault');
    expect(names).toContain('list_unused');
    for (const name of ['list_sessions', 'open_session', 'close_session']) expect(names).not.toContain(name);
    for (const t of controlTools('session'))
      expect(OPERATIONS.find((o) => o.operation.operationId === t.operationId)!.operation['x-oz-in-sessions']).toBe(true);
  });
});

describe('a tool call as a control-plane request', () => {
  it('fills the path, the query and the body', () => {
    expect(controlRequest(tool('remove_fault'), { id: 'flt/1' })).toEqual({ method: 'DELETE', path: '/faults/flt%2F1' });
    expect(controlRequest(tool('read_journal'), { operationId: 'getTool', limit: 2, body: { text: 'hi' } })).toEqual({
      method: 'GET',
      path: '/journal?operationId=getTool&limit=2&body=%7B%22text%22%3A%22hi%22%7D',
    });
    expect(controlRequest(tool('add_fault'), { type: 'drop', operationId: 'getTool' })).toEqual({
      method: 'POST',
      path: '/faults',
      body: { type: 'drop', operationId: 'getTool' },
    });
    expect(controlRequest(tool('list_keys'), { account: 'demo' }, '/sessions/ses_1')).toEqual({ method: 'GET', path: '/sessions/ses_1/keys?account=demo' });
    expect(controlRequest(tool('clear_journal'), undefined)).toEqual({ method: 'DELETE', path: '/journal' });
    expect(controlRequest(tool('reset'), { coverage: 'keep' })).toEqual({ method: 'POST', path: '/reset', body: { coverage: 'keep' } });
    expect(controlRequest(tool('read_coverage'), undefined)).toEqual({ method: 'GET', path: '/coverage' });
  });

  it('refuses a missing path parameter, an unknown argument of a route without a body, and arguments that are no object', () => {
    const missing = refused(() => controlRequest(tool('remove_stub'), {}));
    expect([missing.status, missing.code, missing.message, missing.fields.missing]).toEqual([422, 'invalid_params', 'id is required (a string).', ['id']]);
    expect(refused(() => controlRequest(tool('remove_stub'), { id: 7 })).message).toBe('id is required (a string).');
    const unknown = refused(() => controlRequest(tool('list_unused'), { verbose: true, x: 1 }));
    expect([unknown.code, unknown.message]).toEqual(['invalid_params', 'verbose, x are not arguments of list_unused (known: none).']);
    expect(refused(() => controlRequest(tool('list_keys'), { acount: 'demo' })).message).toBe('acount is not an argument of list_keys (known: account).');
    expect(refused(() => controlRequest(tool('reset'), [1])).message).toBe('The arguments of reset must be an object.');
  });
});
