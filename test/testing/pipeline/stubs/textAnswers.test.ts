/** Text answers (`{ status, text, contentType }`): markdown or text sent as it is, whatever wire was negotiated. */
import { afterEach, describe, expect, it } from 'vitest';
import { createOzServer, OzMockError, type OzServer } from '../../../../src/testing/index.js';

let server: OzServer;
afterEach(() => server?.close());

describe('a text answer', () => {
  it('sends the same bytes and content type on every wire', async () => {
    server = createOzServer();
    const text = '# Echo\n\n**content:** hello — as recorded\n';
    server.stubs.add({ operationId: 'getTool', answer: { status: 200, text, contentType: 'text/markdown; charset=utf-8' } });
    for (const accept of ['application/json', 'text/plain', 'text/markdown']) {
      const res = await server.fetch(`${server.url}/v1/tools/echo`, { headers: { authorization: `Bearer ${server.apiKey}`, accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      expect(await res.text()).toBe(text);
    }
  });

  it('is refused with a content type off the markdown and text wires, beside a body, or with a status the operation never answers', () => {
    server = createOzServer();
    expect(() => server.stubs.add({ operationId: 'getTool', answer: { status: 200, text: '<p>x</p>', contentType: 'text/html' } })).toThrow(
      /answer\.contentType must be text\/markdown or text\/plain/,
    );
    expect(() => server.stubs.add({ operationId: 'getTool', answer: { status: 200, text: 'x', contentType: 'text/plain', body: {} } as never })).toThrow(
      /Give answer\.text alone/,
    );
    let thrown: unknown;
    try {
      server.stubs.add({ operationId: 'getTool', answer: { status: 418 as never, text: 'x', contentType: 'text/plain' } });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(OzMockError);
    expect(thrown).toMatchObject({ status: 422, code: 'invalid_params' });
    expect((thrown as Error).message).toMatch(/answer\.status: getTool never answers 418/);
    expect(() => server.stubs.add({ operationId: 'getTool', answer: { status: 418, text: 'x', contentType: 'text/plain' }, unchecked: true })).not.toThrow();
  });
});
