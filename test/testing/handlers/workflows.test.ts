import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionResult, Workflow, WorkflowList } from '../../../src/generated/types.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

const inline = {
  name: 'one-two',
  tasks: [
    { id: 'one', type: 'task', agent: 'writer' },
    { id: 'two', type: 'task', agent: 'writer', user_request: 'Polish: {input}' },
  ],
};

describe('inline workflows', () => {
  it('runs {workflow, input} and chains each task’s output into the next {input}', async () => {
    server = createTestServer();
    const res = await callJson<ExecutionResult>(server, 'POST', '/v1/workflows/execute', { body: { workflow: inline, input: 'a memo' } });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe('Here is a draft for: Polish: Here is a draft for: a memo');
    expect(server.getExecution(res.body.execution_id)).toMatchObject({ kind: 'workflow', target: 'one-two', workflow_id: null });
  });

  it('accepts the workflow itself at the top level, and removes format, input and inputs before the engine', async () => {
    server = createTestServer();
    const res = await callJson<ExecutionResult>(server, 'POST', '/v1/workflows/execute', {
      body: { ...inline, input: 'x', inputs: { tone: 'dry' }, format: 'json' },
    });
    expect(res.status).toBe(200);
    const unknown = await callJson<ErrorBody>(server, 'POST', '/v1/workflows/execute', { body: { ...inline, colour: 'blue' } });
    expect([unknown.status, unknown.body.error.message]).toEqual([422, 'Unknown field: colour.']);
  });

  it('takes a YAML body with format, input and inputs next to workflow, and fills {inputs.name}', async () => {
    server = createTestServer();
    const body = [
      'workflow:',
      '  name: toned',
      '  tasks:',
      '    - id: t',
      '      type: task',
      '      agent: writer',
      '      user_request: "{input} in a {inputs.tone} tone"',
      'input: a note',
      'inputs:',
      '  tone: dry',
      'format: markdown',
    ].join('\n');
    const res = await call(server, 'POST', '/v1/workflows/execute', { body, headers: { 'content-type': 'text/yaml' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await res.text()).toBe(`Here is a draft for: a note in a dry tone\n\n---\nexecution_id: ${res.headers.get('x-execution-id')}\n`);
  });

  it.each([
    ['no tasks', { name: 'w', tasks: [] }],
    ['a task without agent', { name: 'w', tasks: [{ id: 'a', type: 'task' }] }],
    ['an unknown agent', { name: 'w', tasks: [{ id: 'a', type: 'task', agent: 'ghost' }] }],
    ['a task type other than task', { name: 'w', tasks: [{ id: 'a', type: 'loop', agent: 'writer' }] }],
    [
      'twice the same task id',
      {
        name: 'w',
        tasks: [
          { id: 'a', type: 'task', agent: 'writer' },
          { id: 'a', type: 'task', agent: 'writer' },
        ],
      },
    ],
    ['no name', { tasks: [{ id: 'a', type: 'task', agent: 'writer' }] }],
  ])('answers 422 invalid_params for %s and writes no execution', async (_n, workflow) => {
    server = createTestServer();
    const res = await callJson<ErrorBody>(server, 'POST', '/v1/workflows/execute', { body: { workflow } });
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_params']);
    expect(res.headers.get('x-execution-id')).toBeNull();
  });

  it('fails the run with the task agent’s error', async () => {
    server = createTestServer();
    const res = await callJson<ErrorBody>(server, 'POST', '/v1/workflows/execute', {
      body: { name: 'gate', tasks: [{ id: 'ok', type: 'task', agent: 'approver' }], input: 'x' },
    });
    expect([res.status, res.body.error.code]).toEqual([409, 'approval_required']);
  });
});

describe('stored workflows', () => {
  it('runs the seeded draft-and-review, sync and async', async () => {
    server = createTestServer();
    const res = await callJson<ExecutionResult>(server, 'POST', '/v1/workflows/draft-and-review/execute', { body: { input: 'launch' } });
    expect(res.body.content).toBe('Here is a draft for: Review this draft: Here is a draft for: launch');
    const noBody = await call(server, 'POST', '/v1/workflows/draft-and-review/execute');
    expect(noBody.status).toBe(200);
    expect((await call(server, 'POST', '/v1/workflows/ghost/execute', { body: {} })).status).toBe(404);
  });

  it('creates, lists, gets and deletes; 409 already_exists for a name in use; 422 for a bad name', async () => {
    server = createTestServer();
    const created = await callJson<Workflow>(server, 'POST', '/v1/workflows', { body: { ...inline, description: 'two steps' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^wfl_/), name: 'one-two', description: 'two steps' });
    expect((await callJson<WorkflowList>(server, 'GET', '/v1/workflows')).body.data.map((w) => w.name)).toEqual(['draft-and-review', 'one-two']);
    expect((await callJson<Workflow>(server, 'GET', '/v1/workflows/one-two')).body.id).toBe(created.body.id);
    const dup = await callJson<ErrorBody>(server, 'POST', '/v1/workflows', { body: inline });
    expect([dup.status, dup.headers.get('x-error-code')]).toEqual([409, 'already_exists']);
    expect((await call(server, 'POST', '/v1/workflows', { body: { ...inline, name: 'Bad Name' } })).status).toBe(422);
    expect((await callJson<ErrorBody>(server, 'POST', '/v1/workflows', { body: {} })).body.error.missing).toEqual(['name', 'tasks']);
    expect((await callJson(server, 'DELETE', '/v1/workflows/one-two')).body).toEqual({ id: created.body.id, deleted: true });
    expect((await call(server, 'GET', '/v1/workflows/one-two')).status).toBe(404);
    expect((await call(server, 'DELETE', '/v1/workflows/one-two')).status).toBe(404);
    expect((await call(server, 'GET', '/v1/workflows/draft-and-review', { key: server.keys.otherApiKey })).status).toBe(404);
  });
});
