// The negotiation step (src/testing/pipeline/steps/negotiate.ts): only a wire operation that does not stream picks
// its wire before the handler. The models plane answers JSON whatever the format asked, and a stream ignores it.
import { afterEach, describe, expect, it } from 'vitest';
import type { OzServer } from '../../../../src/testing/index.js';
import { createTestServer } from '../../../support/ozServer.js';
import { call } from '../../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

describe('the negotiation step', () => {
  it('leaves the models plane to answer JSON: ?format= and Accept are not read there', async () => {
    server = createTestServer();
    for (const [query, accept] of [
      ['?format=xml', 'application/json'],
      ['?format=yaml', 'text/yaml'],
      ['', 'text/markdown'],
    ] as const) {
      const res = await call(server, 'POST', `/v1/embeddings${query}`, { body: { model: 'oz-embed', input: 'alpha' }, headers: { accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).object).toBe('list');
    }
  });

  it('leaves a streamed execution its event stream, whatever ?format= says', async () => {
    server = createTestServer();
    const res = await call(server, 'POST', '/v1/execute?format=xml', { body: { agent: 'writer', user_request: 'one two', stream: true } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await res.text()).toContain('event: result');
  });

  it('still refuses a format outside the four on a wire operation that does not stream', async () => {
    server = createTestServer();
    const res = await call(server, 'POST', '/v1/execute?format=xml', { body: { agent: 'writer', user_request: 'one two' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-error-code')).toBe('invalid_format');
  });
});
