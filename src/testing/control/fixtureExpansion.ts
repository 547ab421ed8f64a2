import { invalidParams } from '../errors.js';

/**
 * How many values (objects, arrays, scalars) a fixture document may stand for once every YAML alias is counted
 * as a copy of what its anchor holds: a million, far beyond any real fixture file and far below what freezes
 * the server (a few hundred bytes of nested aliases stand for billions).
 */
export const FIXTURE_EXPANSION_LIMIT = 1_000_000;

const IN_PROGRESS = -1;

/**
 * Throws 422 `invalid_params` naming the document (`source`, else "The fixture document") when it expands past
 * {@link FIXTURE_EXPANSION_LIMIT} values. js-yaml makes an alias the same object as its anchor, so the document is
 * a graph: each object is counted once and its count reused, which takes time in the size of the text, not of
 * the expansion. A cycle (an object of code holding itself) has no expansion at all and is refused too.
 */
export function checkFixtureExpansion(doc: unknown, source?: string): void {
  const sizes = new Map<object, number>();
  const size = (value: unknown): number => {
    if (typeof value !== 'object' || value === null) return 1;
    const known = sizes.get(value);
    if (known !== undefined) return known === IN_PROGRESS ? Infinity : known;
    sizes.set(value, IN_PROGRESS);
    let total = 1;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      total += size(child);
      if (total > FIXTURE_EXPANSION_LIMIT) break;
    }
    sizes.set(value, total);
    return total;
  };
  if (size(doc) > FIXTURE_EXPANSION_LIMIT) {
    throw invalidParams(
      `${source ?? 'The fixture document'} expands to more than ${FIXTURE_EXPANSION_LIMIT} values (its YAML aliases repeat what their anchors hold): nothing of it was added.`,
    );
  }
}
