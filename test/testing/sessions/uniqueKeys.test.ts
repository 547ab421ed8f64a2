/**
 * Keys are unique across the default world and every session (the contract's "Money and trust at the edges"): a
 * session or a key whose value is in use anywhere in the server is refused, 422 `invalid_params` naming the key's
 * field; a session that imports a state document keeps its own key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

const TOKEN = `ozadm_${'u'.repeat(32)}`;
const FIXED = `ozk_${'F'.repeat(32)}`;
let server: OzServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const control = (s: OzServer, method: string, path: string, body?: unknown) =>
  callJson<ErrorBody & Record<string, unknown>>(s, method, `/_oz${path}`, { key: TOKEN, body });
const fixedKeyFixture = { keys: [{ account: 'demo', value: FIXED }] };

describe('key values unique across the server', () => {
  it('a session whose fixture key is a key of the default world is refused, naming the field; nothing is made', async () => {
    server = createTestServer({ adminToken: TOKEN });
    server.addKey({ account: 'demo', key: FIXED });
    const res = await control(server, 'POST', '/sessions', { fixtures: fixedKeyFixture });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_params');
    expect(res.body.error.message).toContain('keys[0].value is in use already in this server');
    expect((await control(server, 'GET', '/sessions')).body.data).toEqual([]);
    // The key still opens the default world.
    expect((await call(server, 'GET', '/v1/tools', { key: FIXED })).status).toBe(200);
  });

  it('two sessions loading one fixed key: the second is refused (over HTTP and in process)', async () => {
    server = createTestServer({ adminToken: TOKEN });
    const first = await control(server, 'POST', '/sessions', { fixtures: fixedKeyFixture });
    expect(first.status).toBe(201);
    const second = await control(server, 'POST', '/sessions', { fixtures: fixedKeyFixture });
    expect(second.status).toBe(422);
    expect(second.body.error.message).toContain('keys[0].value is in use already in this server');
    expect(() => server!.session({ fixtures: fixedKeyFixture })).toThrow(/keys\[0\]\.value is in use already in this server/);
    expect((await control(server, 'GET', '/sessions')).body.data).toHaveLength(1);
  });

  it('a key added to the default world, or to another session, with a value a session holds is refused', async () => {
    server = createTestServer({ adminToken: TOKEN });
    const session = server.session({ fixtures: fixedKeyFixture });
    expect(() => server!.addKey({ account: 'demo', key: FIXED })).toThrow(/^key: that key value is in use already in this server/);
    expect(() => server!.session().addKey({ account: 'demo', key: FIXED })).toThrow(/^key: that key value is in use already/);
    const res = await control(server, 'POST', '/keys', { account: 'demo', value: FIXED });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe('value: that key value is in use already in this server (the default world or a session).');
    expect(() => server!.loadFixtures(fixedKeyFixture)).toThrow(/keys\[0\]\.value is in use already/);
    expect((await call(server, 'GET', '/v1/tools', { key: FIXED })).headers.get('x-request-id')).not.toBeNull();
    await session.close();
    // Once the session ended its value is free again.
    expect(server.addKey({ account: 'demo', key: FIXED }).key).toBe(FIXED);
  });

  it("a session that imports another session's state keeps its own key (in process and PUT /_oz/sessions/{id}/state)", async () => {
    server = createTestServer({ adminToken: TOKEN });
    const a = server.session();
    const b = server.session();
    a.addWorkflow({ account: 'demo', name: 'from-a', tasks: [{ id: 't', type: 'task', agent: 'writer' }] });
    b.importState(a.exportState());
    const viaB = await callJson<{ data: Array<{ name: string }> }>(server, 'GET', '/v1/workflows', { key: b.apiKey });
    expect(viaB.status).toBe(200);
    expect(viaB.body.data.map((w) => w.name)).toContain('from-a');
    expect((await call(server, 'GET', '/v1/workflows', { key: a.apiKey })).status).toBe(200);

    const c = server.session();
    const put = await control(server, 'PUT', `/sessions/${c.id}/state`, a.exportState());
    expect(put.status).toBe(200);
    const viaC = await callJson<{ data: Array<{ name: string }> }>(server, 'GET', '/v1/workflows', { key: c.apiKey });
    expect(viaC.status).toBe(200);
    expect(viaC.body.data.map((w) => w.name)).toContain('from-a');
    // Each key still opens its own world: a write through c is not seen through a.
    await call(server, 'DELETE', '/v1/workflows/from-a', { key: c.apiKey });
    expect((await callJson<{ data: Array<{ name: string }> }>(server, 'GET', '/v1/workflows', { key: a.apiKey })).body.data.map((w) => w.name)).toContain(
      'from-a',
    );
  });

  it("the default world importing a session's state (its keys) is refused, naming the key, and keeps its state", async () => {
    server = createTestServer({ adminToken: TOKEN });
    const a = server.session();
    const before = server.exportState();
    const res = await control(server, 'PUT', '/state', a.exportState());
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/^State document: keys\[\d+\]\.hash is a key another world of this server holds/);
    expect(server.exportState().keys).toEqual(before.keys);
    expect((await call(server, 'GET', '/v1/tools')).status).toBe(200);
  });
});
