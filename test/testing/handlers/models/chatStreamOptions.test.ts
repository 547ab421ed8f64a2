/**
 * Chat completions' contract slip a fuzzer found (issue 22, point 9): `stream_options` is refused as OpenAI refuses
 * it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OzServer } from '../../../../src/testing/index.js';
import { createTestServer } from '../../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

describe('chat completions: stream_options without stream: true', () => {
  it('is a validation error with OpenAI’s type and param', async () => {
    server = createTestServer();
    const messages = [{ role: 'user', content: 'hi' }];
    for (const extra of [{}, { stream: false }]) {
      const res = await callJson<ErrorBody>(server, 'POST', '/v1/chat/completions', {
        body: { model: 'oz-chat', messages, stream_options: { include_usage: true }, ...extra },
      });
      expect([res.status, res.body.error.code, res.body.error.type, res.body.error.param]).toEqual([
        422,
        'invalid_params',
        'invalid_request_error',
        'stream_options',
      ]);
      expect(res.body.error.message).toBe('stream_options is only allowed when stream is true.');
    }
    expect((await call(server, 'POST', '/v1/chat/completions', { body: { model: 'oz-chat', messages, stream_options: null } })).status).toBe(200);
    const streamed = await call(server, 'POST', '/v1/chat/completions', {
      body: { model: 'oz-chat', messages, stream: true, stream_options: { include_usage: true } },
    });
    expect(streamed.status).toBe(200);
    await streamed.text();
  });
});
