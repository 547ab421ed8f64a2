/**
 * The responses each operation declares, derived from openapi.json: every status of its `responses`, a success
 * once per form (buffered, streamed), an error status once per code it can answer with that status
 * (`OPERATION_ERROR_CODES`), or once without a code when it can answer none.
 */
import { describe, expect, it } from 'vitest';
import openapi from '../../../openapi.json' with { type: 'json' };
import { OPERATION_ERROR_CODES } from '../../../src/generated/operationErrors.js';
import { OPERATIONS } from '../../../src/generated/operations.js';
import { DECLARED_RESPONSES } from '../../../src/testing/contract/declaredResponses.js';

const names = (id: keyof typeof OPERATIONS) => DECLARED_RESPONSES.get(id)!.map((r) => [r.status, r.code ?? '-', r.streamed ? 'streamed' : ''].join(' ').trim());

describe('DECLARED_RESPONSES', () => {
  it('holds every operation of openapi.json', () => {
    expect([...DECLARED_RESPONSES.keys()].sort()).toEqual(Object.keys(OPERATIONS).sort());
  });

  it("has an operation's own error codes under their statuses, and the codes its rules add", () => {
    expect(names('executeTool')).toEqual([
      '200 -',
      '202 -',
      '400 invalid_format',
      '400 invalid_json',
      '401 unauthorized',
      '404 tool_not_found',
      '408 request_timeout',
      '409 approval_required',
      '409 duplicate_execution_id',
      '409 reset',
      '413 payload_too_large',
      '422 invalid_params',
      '424 connection_required',
      '424 credential_required',
      '429 rate_limited',
      '500 internal_error',
      '504 timeout',
    ]);
  });

  it('declares a success buffered, streamed, or both, as its content types say', () => {
    expect(names('executeWorkflowStream').filter((n) => n.startsWith('200'))).toEqual(['200 - streamed']);
    expect(names('executeAgent').filter((n) => n.startsWith('200'))).toEqual(['200 -', '200 - streamed']);
    expect(names('listTools').filter((n) => n.startsWith('200'))).toEqual(['200 -']);
  });

  it('declares an error status the operation can answer no code with once, without a code', () => {
    expect(names('listTools')).toContain('404 -');
    expect(names('listTools').filter((n) => n.startsWith('404'))).toEqual(['404 -']);
  });

  it('covers each status of the document and each code of OPERATION_ERROR_CODES, nothing else', () => {
    const paths = openapi.paths as unknown as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    for (const [id, op] of Object.entries(OPERATIONS)) {
      const declared = DECLARED_RESPONSES.get(id as keyof typeof OPERATIONS)!;
      const statuses = Object.keys(paths[op.path]![op.method.toLowerCase()]!.responses).map(Number);
      expect([...new Set(declared.map((r) => r.status))].sort(), id).toEqual([...statuses].sort());
      const codes: readonly string[] = OPERATION_ERROR_CODES[id as keyof typeof OPERATION_ERROR_CODES];
      expect(declared.flatMap((r) => (r.code === null ? [] : [r.code])).sort(), id).toEqual([...codes].sort());
    }
  });
});
