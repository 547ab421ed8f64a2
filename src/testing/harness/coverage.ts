import type { OperationId } from '../../generated/operations.js';
import { DECLARED_RESPONSES } from '../contract/declaredResponses.js';

/**
 * What gave a request its answer: the server itself (`handler`: its handlers and its steps, a 401 or a 422 of
 * validation included), a stub, a fault (an `error`, or a `cut` or `lose` that took the answer away; a `delay`
 * leaves the answer to whoever gives it), or a chaos rule.
 */
export type CoverageAnswerer = 'handler' | 'stub' | 'fault' | 'chaos';

/** How many answers each of the answerers gave. */
export type CoverageCounts = { readonly [K in CoverageAnswerer]: number };

/** One answer of an operation in a coverage report. */
export interface CoverageResponse {
  readonly status: number;
  /** The error code (`X-Error-Code`); `null` for a success, or an error status openapi.json names no code for. */
  readonly code: string | null;
  /** The answer was an event stream (`text/event-stream`). */
  readonly streamed: boolean;
  /** How many requests of the run got it. */
  readonly count: number;
  /** What gave it, by answerer (the four add up to `count`). */
  readonly by: CoverageCounts;
  /** openapi.json declares it; `false`: an answer outside the document (an unchecked stub's), never in the share. */
  readonly declared: boolean;
}

/** One operation of openapi.json in a coverage report. */
export interface CoverageOperation {
  readonly operationId: OperationId;
  /** How many requests of the run it received (a dropped one too, which got no answer). */
  readonly calls: number;
  /** Every answer it declares (sorted by status, then streamed, then code), then the undeclared ones it gave. */
  readonly responses: readonly CoverageResponse[];
}

/** The summary of a coverage report: over the declared answers of the operations the run called. */
export interface CoverageSummary {
  /** The declared answers of the operations called at least once. */
  readonly declared: number;
  /** How many of those some request got. */
  readonly covered: number;
  /** `covered / declared`, from 0 to 1 (0 when nothing was called). */
  readonly share: number;
}

/**
 * What a run exercised of openapi.json (`server.coverage()`, `GET /_oz/coverage`, `oz-mock --coverage FILE`):
 * every operation with every answer it declares and how many requests got each, and by what.
 */
export interface OzCoverageReport {
  readonly operations: readonly CoverageOperation[];
  readonly summary: CoverageSummary;
}

/** What one answered request adds to the counts. */
export interface CoverageAnswer {
  readonly status: number;
  readonly code: string | null;
  readonly streamed: boolean;
  readonly by: CoverageAnswerer;
}

interface Counted {
  readonly status: number;
  readonly code: string | null;
  readonly streamed: boolean;
  by: Record<CoverageAnswerer, number>;
}

const keyOf = (status: number, code: string | null, streamed: boolean) => `${status} ${code ?? ''} ${streamed ? 's' : 'b'}`;

const noCounts = (): Record<CoverageAnswerer, number> => ({ handler: 0, stub: 0, fault: 0, chaos: 0 });

const total = (by: CoverageCounts) => by.handler + by.stub + by.fault + by.chaos;

/**
 * Where an answer counts among the declared ones: its own status and code; else, for an error status the
 * document names no code for, that status's `code: null` answer. `undefined`: undeclared.
 */
function declaredKey(declared: ReadonlySet<string>, answer: CoverageAnswer): string | undefined {
  const own = keyOf(answer.status, answer.code, answer.streamed);
  if (declared.has(own)) return own;
  const codeless = keyOf(answer.status, null, answer.streamed);
  return answer.code !== null && declared.has(codeless) ? codeless : undefined;
}

const DECLARED_KEYS: ReadonlyMap<OperationId, ReadonlySet<string>> = new Map(
  [...DECLARED_RESPONSES].map(([id, list]) => [id, new Set(list.map((r) => keyOf(r.status, r.code, r.streamed)))]),
);

/**
 * The coverage counts of one world (counted by the chain's coverage step, where a request's journal entry is final). A
 * session's counts go to the server's too (`countsAlsoIn`): the server's report is the whole run's.
 */
export class Coverage {
  #calls = new Map<OperationId, number>();
  #answers = new Map<OperationId, Map<string, Counted>>();
  #parent: Coverage | null = null;

  /** Every request counted here is counted in `parent` as well (a session's in its server's). */
  countsAlsoIn(parent: Coverage): void {
    this.#parent = parent;
  }

  /** Counts a request of `operationId`, and its answer (`null`: the connection was dropped, no answer). */
  record(operationId: OperationId, answer: CoverageAnswer | null): void {
    this.#calls.set(operationId, (this.#calls.get(operationId) ?? 0) + 1);
    if (answer !== null) {
      const own = keyOf(answer.status, answer.code, answer.streamed);
      const declared = declaredKey(DECLARED_KEYS.get(operationId) ?? new Set(), answer);
      const key = declared ?? own;
      let answers = this.#answers.get(operationId);
      if (!answers) this.#answers.set(operationId, (answers = new Map()));
      let counted = answers.get(key);
      // Counted under the status's code-less answer when that is where it is declared.
      if (!counted) answers.set(key, (counted = { status: answer.status, code: key === own ? answer.code : null, streamed: answer.streamed, by: noCounts() }));
      counted.by[answer.by]++;
    }
    this.#parent?.record(operationId, answer);
  }

  /** Forgets every count. */
  clear(): void {
    this.#calls.clear();
    this.#answers.clear();
  }

  /** The report: every operation of openapi.json, every answer it declares, then the undeclared ones it gave. */
  report(): OzCoverageReport {
    let declared = 0;
    let covered = 0;
    const operations: CoverageOperation[] = [];
    for (const [operationId, list] of DECLARED_RESPONSES) {
      const calls = this.#calls.get(operationId) ?? 0;
      const answers = this.#answers.get(operationId);
      const responses: CoverageResponse[] = list.map((r) => {
        const by: CoverageCounts = { ...(answers?.get(keyOf(r.status, r.code, r.streamed))?.by ?? noCounts()) };
        return { status: r.status, code: r.code, streamed: r.streamed, count: total(by), by, declared: true };
      });
      const keys = DECLARED_KEYS.get(operationId)!;
      const undeclared = [...(answers?.entries() ?? [])]
        .filter(([key]) => !keys.has(key))
        .map(([, c]) => ({ status: c.status, code: c.code, streamed: c.streamed, count: total(c.by), by: { ...c.by }, declared: false }));
      undeclared.sort((a, b) => a.status - b.status || Number(a.streamed) - Number(b.streamed) || (a.code ?? '').localeCompare(b.code ?? ''));
      if (calls > 0) {
        declared += responses.length;
        covered += responses.filter((r) => r.count > 0).length;
      }
      operations.push({ operationId, calls, responses: [...responses, ...undeclared] });
    }
    return { operations, summary: { declared, covered, share: declared === 0 ? 0 : covered / declared } };
  }
}
