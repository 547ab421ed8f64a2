/**
 * Names a request gives (a settings field, an item patch field, a fixture's key kind, a template's field) are looked up as own properties only: `constructor`, `toString` and `__proto__` are
 * unknown names, never Object.prototype's members (issue 22, point 8).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOzServer, type OzServer } from '../../../src/testing/index.js';

const TOKEN = 'ozadm_TestTestTestTestTestTestTestTest';
const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
let server: OzServer;
afterEach(() => server?.close());

async function oz(method: string, path: string, body: string, contentType = 'application/json') {
  const res = await server.fetch(`${server.url}/_oz${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': contentType }, body });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } & Record<string, unknown> };
}

describe('request names are own properties only', () => {
  it('PATCH /_oz/settings: a prototype name is not a setting (422 naming it), and nothing changes', async () => {
    server = createOzServer({ adminToken: TOKEN });
    const before = await (await server.fetch(`${server.url}/_oz/settings`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    for (const name of PROTOTYPE_NAMES) {
      // written by hand: JSON.stringify({ __proto__: 5 }) would drop the field
      const r = await oz('PATCH', '/settings', `{"${name}": 5}`);
      expect([name, r.status, r.body.error?.code]).toEqual([name, 422, 'invalid_params']);
      expect(r.body.error?.message).toBe(`${name} is not a setting (known: rate_limit, step_ms, token_ms, poll_ms, key_cache_ms).`);
    }
    expect(await (await server.fetch(`${server.url}/_oz/settings`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()).toEqual(before);
  });

  it('PATCH /_oz/items/{id}: a prototype name is not an item field (422 naming it)', async () => {
    server = createOzServer({ adminToken: TOKEN });
    const item = (await (
      await server.fetch(`${server.url}/v1/companies/acme/items`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 't', body: 'b', building: 'lab' }),
      })
    ).json()) as { id: string };
    for (const name of PROTOTYPE_NAMES) {
      const r = await oz('PATCH', `/items/${item.id}`, `{"${name}": 1}`);
      expect([name, r.status, r.body.error?.code]).toEqual([name, 422, 'invalid_params']);
      expect(r.body.error?.message).toMatch(new RegExp(`^${name} is not a field an item patch can change`));
    }
  });

  it('POST /_oz/fixtures: a key kind named like a prototype member is 422 naming keys[0].kind, not a crash', async () => {
    server = createOzServer({ adminToken: TOKEN });
    for (const name of PROTOTYPE_NAMES) {
      const r = await oz(
        'POST',
        '/fixtures',
        `keys:\n  - account: demo\n    kind: ${name}\n    value: ozk_abcdefghijklmnopqrstuvwxyz012345\n`,
        'application/yaml',
      );
      expect([name, r.status, r.body.error?.code]).toEqual([name, 422, 'invalid_params']);
      expect(r.body.error?.message).toContain('keys[0].kind must be one of: platform, models, proxy');
    }
  });

  it('a declared tool template or case naming a prototype member finds nothing in the input', async () => {
    server = createOzServer({ adminToken: TOKEN });
    const fixture = {
      tools: [
        {
          name: 'shout',
          answer: '[{{constructor}}][{{text.toString}}][{{__proto__}}]',
          cases: [{ when: { toString: null }, answer: 'matched a prototype member' }],
        },
      ],
    };
    expect((await oz('POST', '/fixtures', JSON.stringify(fixture))).status).toBe(200);
    const res = await server.fetch(`${server.url}/v1/tools/shout/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(((await res.json()) as { content: string }).content).toBe('[][][]');
  });
});
