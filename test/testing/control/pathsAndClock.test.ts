/**
 * The control plane's edges (the contract's "Money and trust at the edges"): a path with a malformed
 * percent-escape answers 400 `invalid_params` on every route that takes a path parameter; the server clock stays
 * within 1970-9999 (setting or advancing past it is 422 over HTTP, a `RangeError` in process).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_OPENAPI } from '../../../src/testing/control/controlOpenapi.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { callJson, type ErrorBody } from '../support/serverCall.js';

const TOKEN = `ozadm_${'p'.repeat(32)}`;
let server: OzServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const control = (s: OzServer, method: string, path: string, body?: unknown) => callJson<ErrorBody>(s, method, path, { key: TOKEN, body });

/** Every route of the control plane with a path parameter, as (method, path template). */
function parameterRoutes(): Array<[string, string]> {
  const routes: Array<[string, string]> = [];
  for (const [path, item] of Object.entries(CONTROL_OPENAPI.paths as Record<string, Record<string, unknown>>)) {
    if (!path.includes('{')) continue;
    for (const method of Object.keys(item)) if (['get', 'post', 'put', 'delete', 'patch'].includes(method)) routes.push([method.toUpperCase(), path]);
  }
  return routes;
}

describe('a control-plane path with a malformed percent-escape', () => {
  it('answers 400 invalid_params on every route that decodes a path parameter', async () => {
    server = createTestServer({ adminToken: TOKEN });
    const routes = parameterRoutes();
    expect(routes.length).toBeGreaterThan(8);
    for (const [method, template] of routes) {
      for (const bad of ['%ff', '%E0%A4%A', '%']) {
        const res = await control(server, method, template.replace(/\{[^}]+\}/g, bad), method === 'GET' || method === 'DELETE' ? undefined : {});
        expect(res.status, `${method} ${template} ${bad}`).toBe(400);
        expect(res.body.error.code, `${method} ${template}`).toBe('invalid_params');
        expect(res.body.error.message).toContain('malformed percent-escape');
      }
    }
    // The session's own routes too.
    const res = await control(server, 'GET', '/_oz/sessions/%ff/journal');
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_params']);
  });
});

describe('the server clock within 1970-01-01 and 9999-12-31', () => {
  it('POST /_oz/clock and /_oz/clock/advance past 9999 answer 422 and leave the clock', async () => {
    server = createTestServer({ adminToken: TOKEN, clock: { start: '9999-12-31T23:00:00Z', frozen: true } });
    const past = await control(server, 'POST', '/_oz/clock/advance', { ms: 3_600_000 });
    expect(past.status).toBe(422);
    expect(past.body.error.code).toBe('invalid_params');
    expect(past.body.error.message).toContain('outside its range 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z');
    expect(server.clock.iso()).toBe('9999-12-31T23:00:00.000Z');
    const last = await control(server, 'POST', '/_oz/clock', { now: '9999-12-31T23:59:59.999Z' });
    expect(last.status).toBe(200);
    expect((await control(server, 'POST', '/_oz/clock/advance', { ms: 1 })).status).toBe(422);
    expect(server.clock.iso()).toBe('9999-12-31T23:59:59.999Z');
  });

  it("a session's clock start outside the range: 422 over HTTP, RangeError in process; nothing made", async () => {
    server = createTestServer({ adminToken: TOKEN });
    for (const start of [-8.64e15, -1, '+010000-01-01T00:00:00Z']) {
      const res = await control(server, 'POST', '/_oz/sessions', { clock: { start } });
      expect(res.status, String(start)).toBe(422);
      expect(res.body.error.message).toContain('clock.start would put the server clock at');
      expect(() => server!.session({ clock: { start } })).toThrow(RangeError);
    }
    expect((await control(server, 'GET', '/_oz/sessions')).body).toEqual({ data: [] });
  });

  it('in process: createOzServer and clock.advance throw a RangeError', async () => {
    expect(() => createTestServer({ clock: { start: Date.UTC(10000, 0, 1) } })).toThrow(RangeError);
    server = createTestServer({ clock: { start: '9999-12-31T23:59:59.000Z', frozen: true } });
    await expect(server.clock.advance(1_000)).rejects.toThrow(/^advance\(1000\) would put the server clock at \+010000-01-01T00:00:00\.000Z/);
    await server.clock.advance(999);
    expect(server.clock.iso()).toBe('9999-12-31T23:59:59.999Z');
  });
});
