/**
 * The repository's own rules of openapi.json (`npm run lint:openapi`, scripts/lint-openapi.mjs): a safe write is one
 * mark (`x-oz-safe-write`) from which the linter requires the other facts, and every error code an operation can
 * answer, its own or the rules', needs its status among the operation's responses.
 */
import { describe, expect, it } from 'vitest';
import openapi from '../../openapi.json' with { type: 'json' };
// @ts-expect-error: the codegen is plain JavaScript without declarations
import { lintSafeWrites as lintSafeWritesUntyped } from '../../scripts/codegen/safeWrites.mjs';
// @ts-expect-error: the codegen is plain JavaScript without declarations
import { lintOperationErrorCodes as lintOperationErrorCodesUntyped } from '../../scripts/codegen/operationErrors.mjs';

type Json = Record<string, unknown>;
interface Op extends Json {
  parameters?: Json[];
  responses: Record<string, Json & { headers?: Record<string, unknown> }>;
}
type Doc = Json & { paths: Record<string, Record<string, Op>> };
const lintSafeWrites = lintSafeWritesUntyped as (doc: Doc) => string[];
const lintOperationErrorCodes = lintOperationErrorCodesUntyped as (doc: Doc) => string[];

const WHERE = 'POST /v1/companies/{campus}/items (createCompanyItem)';
/** openapi.json with `change` made to createCompanyItem, a safe write. */
function withItemCreate(change: (op: Op) => void): Doc {
  const doc = structuredClone(openapi) as unknown as Doc;
  change(doc.paths['/v1/companies/{campus}/items']!.post!);
  return doc;
}

describe('the safe writes of openapi.json', () => {
  it('pass: every marked write has its facts, and every write the rules give idempotency_conflict is marked', () => {
    const doc = openapi as unknown as Doc;
    const marked = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => op['x-oz-safe-write'] === true);
    expect(marked.length).toBeGreaterThan(0);
    expect(lintSafeWrites(doc)).toEqual([]);
  });

  it.each<[string, (op: Op) => void, string]>([
    [
      'the TraceId parameter',
      (op) => (op.parameters = (op.parameters ?? []).filter((p) => p.$ref !== '#/components/parameters/TraceId')),
      'without the TraceId parameter (#/components/parameters/TraceId)',
    ],
    ['x-oz-replay', (op) => delete op['x-oz-replay'], 'without x-oz-replay: true'],
    ['its 409', (op) => delete op.responses['409'], 'without a 409 response'],
    ['its 422', (op) => delete op.responses['422'], 'without a 422 response'],
    [
      'the replay header',
      (op) => delete op.responses['201']!.headers!['x-idempotent-replayed'],
      'without the x-idempotent-replayed header on its 201 response',
    ],
  ])('fail on a safe write without %s, naming the operation and the fact', (_fact, change, phrase) => {
    expect(lintSafeWrites(withItemCreate(change))).toEqual([`${WHERE}: a safe write (x-oz-safe-write) ${phrase}`]);
  });

  it('fail on a safe write that lacks several facts, one problem each', () => {
    const problems = lintSafeWrites(
      withItemCreate((op) => {
        delete op['x-oz-replay'];
        op.parameters = [];
      }),
    );
    expect(problems).toHaveLength(2);
  });

  it('fail on a write the rules make a safe write (idempotency_conflict) when it is not marked', () => {
    const problems = lintSafeWrites(
      withItemCreate((op) => {
        delete op['x-oz-safe-write'];
        delete op['x-oz-replay'];
      }),
    );
    expect(problems).toEqual([`${WHERE}: can answer idempotency_conflict (x-oz-error-code-rules), so it is a safe write: mark it x-oz-safe-write: true`]);
  });

  it('fail on x-oz-replay without the mark, and on a mark that is not true', () => {
    expect(lintSafeWrites(withItemCreate((op) => delete op['x-oz-safe-write']))).toContain(
      `${WHERE}: x-oz-replay without x-oz-safe-write: true (a replayed write is a safe write)`,
    );
    expect(lintSafeWrites(withItemCreate((op) => (op['x-oz-safe-write'] = 'yes')))).toContain(`${WHERE}: x-oz-safe-write must be true (or absent)`);
  });
});

describe('the error responses of openapi.json', () => {
  it('pass: every status a code of an operation needs is among its responses', () => {
    expect(lintOperationErrorCodes(openapi as unknown as Doc)).toEqual([]);
  });

  it('fail when an operation misses the response of a code the rules imply, naming the code and the status', () => {
    const problems = lintOperationErrorCodes(withItemCreate((op) => delete op.responses['413']));
    expect(problems).toEqual([`${WHERE}: can answer payload_too_large, but describes no 413 response`]);
  });

  it('fail when an operation misses the response of one of its own codes', () => {
    const doc = structuredClone(openapi) as unknown as Doc;
    delete doc.paths['/v1/companies/{campus}/items/{id}']!.get!.responses['404'];
    expect(lintOperationErrorCodes(doc)).toEqual([
      'GET /v1/companies/{campus}/items/{id} (getCompanyItem): can answer company_not_found, but describes no 404 response',
      'GET /v1/companies/{campus}/items/{id} (getCompanyItem): can answer item_not_found, but describes no 404 response',
    ]);
  });
});
