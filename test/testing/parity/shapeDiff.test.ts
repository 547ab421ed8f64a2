/** How two answers are compared: the contract's rules, each seen to hold and to fail. */
import { describe, expect, it } from 'vitest';
import type { ParityAnswer } from '../../../src/testing/parity/exchange.js';
import { compareAnswers, eventSequence, formOf, VALUE_PROPERTIES } from '../../../src/testing/parity/shapeDiff.js';

function answer(status: number, value: unknown, headers: Record<string, string> = {}): ParityAnswer {
  return {
    status,
    headers: new Headers({ 'content-type': 'application/json', 'x-request-id': 'req_1', ...headers }),
    contentType: 'application/json',
    text: JSON.stringify(value),
    value,
    events: null,
  };
}
const settled = { settled: true, list: false };

describe('compareAnswers', () => {
  it('compares ids, timestamps and request ids by form, enum values by value', () => {
    const ref = answer(
      200,
      { id: 'exe_aaaaaaaaaaaa', created_at: '2026-11-26T10:00:00.000Z', status: 'succeeded', content: 'x' },
      { 'x-request-id': 'req_aaaaaaaa' },
    );
    const same = answer(
      200,
      { id: 'exe_bbbbbbbbbbbb', created_at: '2025-01-01T00:00:00Z', status: 'succeeded', content: 'a longer text' },
      { 'x-request-id': 'req_bbbbbbbb' },
    );
    expect(compareAnswers(ref, same, settled)).toEqual([]);
    const other = answer(200, { id: 'itm_bbbbbbbbbbbb', created_at: 'yesterday', status: 'failed', content: 7 });
    expect(compareAnswers(ref, other, settled)).toEqual([
      { path: '$.id', reference: 'exe_aaaaaaaaaaaa', target: 'itm_bbbbbbbbbbbb' },
      { path: '$.created_at', reference: '2026-11-26T10:00:00.000Z', target: 'yesterday' },
      { path: '$.status', reference: 'succeeded', target: 'failed' },
      { path: '$.content', reference: 'x', target: 7 },
    ]);
  });

  it('compares an unsettled record by form, and list elements by keys and types', () => {
    const ref = answer(200, { status: 'running' });
    const tgt = answer(200, { status: 'queued' });
    expect(compareAnswers(ref, tgt, { settled: false, list: false })).toEqual([]);
    const list = (kind: string) => answer(200, { data: [{ kind, name: 'n' }], next_cursor: null });
    expect(compareAnswers(list('tool'), list('agent'), { settled: true, list: true })).toEqual([]);
    expect(compareAnswers(list('tool'), list('agent'), settled)).toEqual([{ path: '$.data[0].kind', reference: 'tool', target: 'agent' }]);
  });

  it('names absent keys, status, content type and the named headers', () => {
    const ref = answer(404, { error: { code: 'tool_not_found', message: 'm' } }, { 'x-error-code': 'tool_not_found' });
    const tgt: ParityAnswer = { ...answer(400, { error: { message: 'm', hint: 'h' } }, { 'x-error-code': 'invalid_format' }), contentType: 'application/json' };
    expect(compareAnswers(ref, tgt, settled)).toEqual([
      { path: 'status', reference: 404, target: 400 },
      { path: 'headers.x-error-code', reference: 'tool_not_found', target: 'invalid_format' },
      { path: '$.error.code', reference: 'tool_not_found', target: '(absent)' },
      { path: '$.error.hint', reference: '(absent)', target: 'h' },
    ]);
    const noRequestId = answer(200, {});
    noRequestId.headers.delete('x-request-id');
    expect(compareAnswers(answer(200, {}), noRequestId, settled)).toEqual([{ path: 'headers.x-request-id', reference: 'req_1', target: '(absent)' }]);
  });

  it('compares a stream by its event names in order (a run of tokens once) and its closing event', () => {
    const stream = (names: string[], last: unknown): ParityAnswer => ({
      ...answer(200, undefined),
      contentType: 'text/event-stream',
      value: undefined,
      events: names.map((event, i) => ({ event, data: i === names.length - 1 ? JSON.stringify(last) : '{"delta":"a"}' })),
    });
    expect(
      eventSequence([
        { event: 'token', data: '' },
        { event: 'token', data: '' },
        { event: 'result', data: '' },
        { event: 'message', data: '[DONE]' },
      ]),
    ).toBe('token result [DONE]');
    expect(compareAnswers(stream(['token', 'token', 'result'], { ok: true }), stream(['token', 'result'], { ok: true }), settled)).toEqual([]);
    expect(compareAnswers(stream(['token', 'result'], { ok: true }), stream(['result', 'token'], { ok: true }), settled)).toEqual([
      { path: 'events', reference: 'token result', target: 'result token' },
    ]);
  });

  it('reads the closed sets of values from openapi.json', () => {
    for (const name of ['status', 'kind', 'code', 'object']) expect(VALUE_PROPERTIES).toContain(name);
    expect(VALUE_PROPERTIES).not.toContain('content');
    expect([formOf('exe_abcdefgh12'), formOf('2026-11-26T10:00:00Z'), formOf('plain'), formOf(null), formOf([]), formOf(1)]).toEqual([
      'id exe_',
      'timestamp',
      'string',
      'null',
      'array',
      'number',
    ]);
  });
});
