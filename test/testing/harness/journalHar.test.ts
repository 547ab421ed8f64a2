/** The journal as HAR 1.2: `server.journal.toHAR()` and `GET /_oz/journal?format=har`, keys redacted. */
import { describe, expect, it } from 'vitest';
import { connectOzMock } from '../../../src/testing/control/remote.js';
import { createOzServer } from '../../../src/testing/server.js';

describe('journal as HAR', () => {
  it('lists each request with its operation and status, credentials reading <redacted> and no key anywhere', async () => {
    const server = createOzServer();
    await server.fetch(`${server.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    });
    await server.fetch(`${server.url}/v1/tools`, { headers: { 'x-api-key': server.apiKey } });
    const har = server.journal.toHAR();
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => [e._operationId, e.request.method, e.response.status])).toEqual([
      ['executeTool', 'POST', 200],
      ['listTools', 'GET', 200],
    ]);
    expect(har.log.entries[0]!.request.headers.find((h) => h.name === 'authorization')?.value).toBe('<redacted>');
    expect(har.log.entries[1]!.request.headers.find((h) => h.name === 'x-api-key')?.value).toBe('<redacted>');
    expect(har.log.entries[0]!.request.postData?.text).toBe('{"text":"hi"}');
    expect(JSON.stringify(har)).not.toContain(server.apiKey.slice(4));

    const admin = { authorization: `Bearer ${server.adminToken}` };
    const viaControl = await (await server.fetch(`${server.url}/_oz/journal?format=har&operationId=listTools`, { headers: admin })).json();
    expect(viaControl).toEqual({ log: { ...har.log, entries: [har.log.entries[1]] } });
    // connectOzMock()'s toHAR takes the journal's filters too.
    const remote = connectOzMock({ url: server.url, adminToken: server.adminToken!, fetch: server.fetch });
    expect(await remote.journal.toHAR('listTools')).toEqual(viaControl);
    expect(await remote.journal.toHAR({ method: 'POST' })).toEqual({ log: { ...har.log, entries: [har.log.entries[0]] } });
    const bad = await server.fetch(`${server.url}/_oz/journal?format=xml`, { headers: admin });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe('format must be json or har.');
    await server.close();
  });
});

describe('journal as HAR, hostile input', () => {
  it('keeps a request whose Host header makes no URL, under a stand-in host', async () => {
    const server = createOzServer();
    await server.fetch(new Request(`${server.url}/health`, { headers: { host: '[bad' } }));
    expect(server.journal.entries[0]!.headers['host']).toBe('[bad');
    expect(server.journal.toHAR().log.entries.map((e) => e.request.url)).toEqual(['http://oz.test/health']);
    await server.close();
  });
});
