// What the console's "Never fired" list shows, worked out from `GET /_oz/unused` without the DOM (so vitest can
// hold it to the server's own answer).

/** A field of a request that did not match, as `GET /_oz/unused` names it. */
interface Difference {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

interface UnusedThing {
  readonly id: string;
  readonly operationId?: string | null;
  readonly answers?: readonly unknown[] | null;
  readonly position?: number | null;
  readonly then?: string | null;
  readonly hits?: number;
  readonly nearMisses?: ReadonlyArray<{
    readonly method?: string;
    readonly path?: string;
    readonly requestId?: string;
    readonly differences?: readonly Difference[];
  }>;
}

/** One line of the list: what never fired, where a sequence stands, and each near miss as text. */
export interface UnusedLine {
  readonly kind: 'fault' | 'stub';
  readonly id: string;
  /** `fault flt_1 (listTools) never fired`. */
  readonly title: string;
  /** Of a sequence: `answer 1 of 3, then repeat` (`null` otherwise). */
  readonly sequence: string | null;
  /** Each near miss: `GET /v1/x (req_1): path.id expected "a", got "b"`. */
  readonly nearMisses: readonly string[];
}

/** Where a sequence of answers stands (`answer 2 of 3, then repeat`), or `null` for one answer. */
export function sequenceOf(stub: Pick<UnusedThing, 'answers' | 'position' | 'then'>): string | null {
  return stub.answers && typeof stub.position === 'number' ? `answer ${stub.position + 1} of ${stub.answers.length}, then ${stub.then ?? 'repeat'}` : null;
}

const shown = (v: unknown): string => (v === undefined ? '(nothing)' : JSON.stringify(v));

function lineOf(kind: UnusedLine['kind'], thing: UnusedThing): UnusedLine {
  return {
    kind,
    id: thing.id,
    title: `${kind} ${thing.id} (${thing.operationId ?? 'any operation'}) never fired`,
    sequence: kind === 'stub' ? sequenceOf(thing) : null,
    nearMisses: (thing.nearMisses ?? []).map(
      (miss) =>
        `${miss.method ?? ''} ${miss.path ?? ''} (${miss.requestId ?? ''}): ${(miss.differences ?? []).map((d) => `${d.path} expected ${shown(d.expected)}, got ${shown(d.actual)}`).join('; ')}`,
    ),
  };
}

/** The lines of `GET /_oz/unused`'s answer (`{ faults, stubs }`, each with its near misses): faults first. */
export function unusedLines(unused: unknown): UnusedLine[] {
  const { faults = [], stubs = [] } = (unused ?? {}) as { faults?: readonly UnusedThing[]; stubs?: readonly UnusedThing[] };
  return [...faults.map((f) => lineOf('fault', f)), ...stubs.map((s) => lineOf('stub', s))];
}
