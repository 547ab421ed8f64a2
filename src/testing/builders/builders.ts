import { ERROR_DEFAULTS, RESOURCE_BUILDERS, type BuiltResources } from '../../generated/builders.js';
import * as validators from '../../generated/builderValidators.js';
import type { ErrorCode, ErrorEnvelope, ErrorObject } from '../../generated/types.js';
import { generatedCheck, type GeneratedValidator, type SchemaCheck } from '../contract/schemaValidation.js';
import { isPlainObject } from '../support/plainObject.js';
import { seededIds } from './seededIds.js';

/** A page of a list route, as the API answers it (`{ data, next_cursor }`). */
export interface BuiltPage<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * A set of builders: one per resource schema of openapi.json (`item`, `execution`, `tool`, `agent`, `schedule`,
 * `workflow`, `trace`, `pointer`, `result`, ...), each taking overrides typed as the schema, plus `error` and `page`.
 * Every value is valid against openapi.json; an override that makes it invalid throws a `TypeError` naming the path.
 */
export type OzBuilders = {
  readonly [K in keyof BuiltResources]: (overrides?: Partial<BuiltResources[K]>) => BuiltResources[K];
} & {
  /** The error envelope of `code`: its description as `message`, the fields the code always carries, then `fields`. */
  error(code: ErrorCode, fields?: Partial<ErrorObject>): ErrorEnvelope;
  /** A page of a list route: `{ data: items, next_cursor }` (`null`: the last page). */
  page<T>(items: readonly T[], nextCursor?: string | null): BuiltPage<T>;
};

/** Options of {@link createBuilders}. */
export interface BuildersOptions {
  /** The seed: two sets with the same seed give the same values for the same calls. Default 0. */
  readonly seed?: number;
}

const checks = new Map<string, SchemaCheck>();

function checkOf(schema: string): SchemaCheck {
  let check = checks.get(schema);
  if (!check) {
    check = generatedCheck((validators as unknown as Record<string, GeneratedValidator>)[`component_${schema}`]!);
    checks.set(schema, check);
  }
  return check;
}

/** Throws a `TypeError` naming the path of what makes `value` invalid against openapi.json's `schema`. */
function checked<T>(what: string, schema: string, value: T): T {
  const problem = checkOf(schema)(value);
  if (problem)
    throw new TypeError(`${what}: not a valid ${schema} of openapi.json at ${problem.field === null ? '$' : `$.${problem.field}`}: ${problem.message}`);
  return value;
}

/** Own fields that are not `undefined` (a field set to `undefined` is taken as not given). */
function given(overrides: unknown, what: string): Record<string, unknown> {
  if (overrides === undefined) return {};
  if (!isPlainObject(overrides)) throw new TypeError(`${what}: overrides must be an object of the schema's fields`);
  return Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
}

function setAt(target: unknown, path: readonly (string | number)[], value: unknown): void {
  let node = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
}

/**
 * A set of builders whose output depends only on `seed` and the calls made: ids unique within the set, with the
 * contract's prefixes (`itm_`, `exe_`, `wfl_`, `sch_`, `req_`...); timestamps `2026-11-21T12:00:00.000Z`.
 *
 * @example
 * ```ts
 * const build = createBuilders({ seed: 42 });
 * const parked = build.item({ status: 'parked', step: 'parked', parked_reason: 'waiting for review' });
 * ```
 */
export function createBuilders(options: BuildersOptions = {}): OzBuilders {
  const seed = options.seed ?? 0;
  if (!Number.isInteger(seed)) throw new TypeError('seed must be an integer');
  const newId = seededIds(seed);
  const set: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(RESOURCE_BUILDERS)) {
    const what = `build.${name}()`;
    set[name] = (overrides?: unknown) => {
      const fields = given(overrides, what);
      const value = structuredClone(spec.template) as Record<string, unknown>;
      for (const id of spec.ids) setAt(value, id.path, newId(id.prefix));
      return checked(what, spec.schema, { ...value, ...fields });
    };
  }
  set.error = (code: ErrorCode, fields?: Partial<ErrorObject>): ErrorEnvelope => {
    const defaults = (ERROR_DEFAULTS as Readonly<Record<string, (typeof ERROR_DEFAULTS)[ErrorCode]>>)[code];
    if (!defaults) throw new TypeError(`build.error(): ${JSON.stringify(code)} is not an ErrorCode of openapi.json`);
    const error = { code, message: defaults.message, ...structuredClone(defaults.carried), ...given(fields, 'build.error()') };
    return checked('build.error()', 'ErrorEnvelope', { error } as ErrorEnvelope);
  };
  set.page = <T>(items: readonly T[], nextCursor: string | null = null): BuiltPage<T> => {
    if (!Array.isArray(items)) throw new TypeError('build.page(): items must be an array');
    if (nextCursor !== null && (typeof nextCursor !== 'string' || nextCursor === ''))
      throw new TypeError('build.page(): nextCursor must be a non-empty string or null');
    return { data: [...items], next_cursor: nextCursor };
  };
  return set as OzBuilders;
}

/** The builders of seed 0: `import { build } from 'oz-sdk/testing'`. */
export const build: OzBuilders = createBuilders({ seed: 0 });
