/**
 * Careless use of the embedded server (issue 22, point 10): a fault whose error code is not openapi.json's is a
 * typed error at once, in process and over the control plane.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOzServer, type FaultSpec, type OzServer } from '../../../src/testing/index.js';

const TOKEN = 'ozadm_TestTestTestTestTestTestTestTest';
let server: OzServer;
afterEach(() => server?.close());

describe('faults.add refuses an error code outside openapi.json’s ErrorCode', () => {
  it('in process: a TypeError naming the code, and nothing armed', () => {
    server = createOzServer();
    const typo = { type: 'error', status: 503, code: 'upstream_eror' } as unknown as FaultSpec;
    expect(() => server.faults.add(typo)).toThrow(TypeError);
    expect(() => server.faults.add(typo)).toThrow(/^code must be one of openapi.json's ErrorCode, not "upstream_eror" \(known: invalid_json, .*upstream_error/);
    expect(server.faults.pending).toHaveLength(0);
    // every code of the enum is accepted, with any status
    expect(() => server.faults.add({ type: 'error', status: 503, code: 'upstream_error' })).not.toThrow();
  });

  it('over HTTP: POST /_oz/faults answers 422 invalid_params naming code', async () => {
    server = createOzServer({ adminToken: TOKEN });
    const res = await server.fetch(`${server.url}/_oz/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'error', status: 500, code: 'internal_eror', operationId: 'executeTool' }),
    });
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect([res.status, body.error.code]).toEqual([422, 'invalid_params']);
    expect(body.error.message).toMatch(/^code must be one of openapi.json's ErrorCode, not "internal_eror"/);
    expect(server.faults.pending).toHaveLength(0);
  });
});
