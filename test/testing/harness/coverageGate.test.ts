/**
 * `expectCoverage(server, { min?, require? })`: throws `OzCoverageError` naming every missed response, passes
 * when covered; a bad limit or `require` entry is a `TypeError` naming it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOzServer, expectCoverage, OzCoverageError, type OzServer } from '../../../src/testing/index.js';

let server: OzServer;
afterEach(() => server?.close());

async function get(path: string): Promise<void> {
  await (await server.fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.apiKey}` } })).text();
}

async function executeCrm(): Promise<void> {
  const res = await server.fetch(`${server.url}/v1/tools/crm_lookup/execute`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: '{"query":"acme"}',
  });
  expect(res.status).toBe(424);
}

function thrown(run: () => void): OzCoverageError {
  try {
    run();
  } catch (err) {
    if (err instanceof OzCoverageError) return err;
    throw err;
  }
  throw new Error('expectCoverage() did not throw');
}

describe('expectCoverage', () => {
  it('below min: names every declared response of the operations called that no request got', async () => {
    server = createOzServer();
    await get('/v1/tools');
    const err = thrown(() => expectCoverage(server, { min: 0.5 }));
    expect(err.message).toMatch(/^Coverage 1 of 9 declared responses of the operations called \(11\.1 %\) is below the minimum 50 %\. Missed:\n/);
    expect(err.missed).toEqual([
      'listTools 400 invalid_format',
      'listTools 401 unauthorized',
      'listTools 404',
      'listTools 408 request_timeout',
      'listTools 422 invalid_params',
      'listTools 429 rate_limited',
      'listTools 500 internal_error',
      'listTools 504 timeout',
    ]);
    for (const name of err.missed) expect(err.message).toContain(`\n  ${name}`);
    expect(err.report).toEqual(server.coverage());
  });

  it('require: names each required response no request got (string and object forms), the operation called or not', async () => {
    server = createOzServer();
    await get('/v1/tools');
    const err = thrown(() =>
      expectCoverage(server, {
        require: [
          'executeTool 424 connection_required',
          'listTools 200',
          { operationId: 'createCompanyItem', status: 409 },
          { operationId: 'executeAgent', status: 200, streamed: true },
        ],
      }),
    );
    expect(err.missed).toEqual(['executeTool 424 connection_required', 'createCompanyItem 409', 'executeAgent 200 streamed']);
    expect(err.message).toBe('Required responses no request got:\n  executeTool 424 connection_required\n  createCompanyItem 409\n  executeAgent 200 streamed');
  });

  it('passes when the required responses were covered and the share reaches min', async () => {
    server = createOzServer();
    await executeCrm();
    await get('/v1/tools');
    expect(() =>
      expectCoverage(server, { min: 0.07, require: ['executeTool 424 connection_required', { operationId: 'listTools', status: 200, code: null }] }),
    ).not.toThrow();
    expect(() => expectCoverage(server.coverage(), { min: 0 })).not.toThrow();
    expect(() => expectCoverage(server)).not.toThrow();
  });

  it('fails min when nothing was called (share 0)', () => {
    server = createOzServer();
    expect(thrown(() => expectCoverage(server, { min: 0.01 })).missed).toEqual([]);
  });

  it.each([
    [{ min: 1.5 }, 'min must be a share from 0 to 1 (0.8 for 80 %), not 1.5'],
    [{ min: '0.5' }, 'min must be a share from 0 to 1 (0.8 for 80 %), not "0.5"'],
    [{ max: 1 }, 'max is not a coverage limit (known: min, require)'],
    [{ require: 'executeTool 424' }, 'require must be a list of responses'],
    [{ require: ['createItem 409'] }, 'require[0]: "createItem" is not an operationId of openapi.json'],
    [
      { require: ['listTools 200', 'executeTool'] },
      'require[1]: "executeTool" is not "operationId status [code] [streamed]" (for example "executeTool 424 connection_required")',
    ],
    [
      { require: ['executeTool 424 approval_required'] },
      'require[0]: "executeTool 424 approval_required" is no response openapi.json declares (executeTool declares: 200, 202, 400 invalid_format, 400 invalid_json, 401 unauthorized, 404 tool_not_found, 408 request_timeout, 409 approval_required, 409 duplicate_execution_id, 409 reset, 413 payload_too_large, 422 invalid_params, 424 connection_required, 424 credential_required, 429 rate_limited, 500 internal_error, 504 timeout)',
    ],
    [{ require: [{ operationId: 'listTools', status: '200' }] }, 'require[0]: status must be an HTTP status (an integer), not "200"'],
    [
      { require: [{ operationId: 'listTools', status: 200, when: 'now' }] },
      'require[0]: when is not a field of a requirement (known: operationId, status, code, streamed)',
    ],
    [{ require: [42] }, 'require[0] must be a string ("executeTool 424 connection_required") or { operationId, status, code?, streamed? }, not 42'],
  ])('refuses %j with a TypeError naming it', (limits, message) => {
    server = createOzServer();
    expect(() => expectCoverage(server, limits as never)).toThrow(new TypeError(message));
  });

  it('refuses what is no server, session or report', () => {
    expect(() => expectCoverage({} as never, {})).toThrow(
      new TypeError('expectCoverage() takes a server, a session or a coverage report ({ operations, summary })'),
    );
    expect(() => expectCoverage(null as never, {})).toThrow(
      new TypeError('expectCoverage() takes a server, a session or a coverage report ({ operations, summary })'),
    );
  });
});
