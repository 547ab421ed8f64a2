import { SERVER_OPERATIONS } from '../contract/operations.js';
import { send, UnreachableError, type ParityEndpoint } from './exchange.js';
import type { ParityNames } from './names.js';
import { paritySuite, probeOf, SetupError, toolInputOf, type Need, type Scenario, type SideContext } from './scenarios.js';
import { compareAnswers, type Difference } from './shapeDiff.js';

/** A scenario's verdict. */
export type Verdict = 'same' | 'different' | 'skipped';

/** One scenario in the report (`--json`). */
export interface ScenarioReport {
  readonly id: string;
  readonly operationId: string;
  readonly behaviour: string;
  readonly status: Verdict;
  /** Why it was skipped. */
  readonly reason?: string;
  /** The reference's HTTP status (what a difference line names). */
  readonly referenceStatus?: number;
  readonly differences: readonly Difference[];
}

/** What `oz-mock parity --json` prints and `--report FILE` writes. */
export interface ParityReport {
  readonly target: string;
  readonly reference: string;
  readonly scenarios: readonly ScenarioReport[];
  readonly summary: { readonly same: number; readonly different: number; readonly skipped: number };
  /** Every operation of openapi.json with the verdict of each behaviour compared. */
  readonly coverage: ReadonlyArray<{ readonly operationId: string; readonly behaviours: Readonly<Record<string, Verdict>> }>;
}

/** A parity run: the two sides and the names the target has. */
export interface ParityOptions {
  readonly target: ParityEndpoint;
  readonly reference: ParityEndpoint;
  readonly names: ParityNames;
  /** Default: the whole suite. */
  readonly scenarios?: readonly Scenario[];
}

function sideContext(endpoint: ParityEndpoint, names: ParityNames, run: string): SideContext {
  let n = 0;
  let toolInput: Promise<Record<string, unknown>> | null = null;
  const done = new Map<string, Promise<void>>();
  return {
    endpoint,
    names,
    fresh: () => `parity-${run}-${++n}`,
    toolInput: () => (toolInput ??= send(endpoint, probeOf('tool', names).request).then((a) => toolInputOf(a.value))),
    once(key, work) {
      let p = done.get(key);
      if (!p) done.set(key, (p = work()));
      return p;
    },
  };
}

/** Why a side lacks a need, or `null` when it has it. */
async function lack(side: ParityEndpoint, need: Need, names: ParityNames, which: string): Promise<string | null> {
  const { request, what } = probeOf(need, names);
  const answer = await send(side, request);
  if (answer.status >= 200 && answer.status < 300) return null;
  const code = answer.headers.get('x-error-code');
  return `the ${which} has no ${what} (${answer.status}${code ? ` ${code}` : ''})`;
}

/** Answers once the side answers `GET /health`; throws {@link UnreachableError} when it cannot be reached. */
async function reach(side: ParityEndpoint): Promise<void> {
  await send(side, { method: 'GET', path: '/health', key: false });
}

/** Runs the suite against the target and the reference and compares each scenario's answers. */
export async function runParity(options: ParityOptions): Promise<ParityReport> {
  const { target, reference, names } = options;
  await reach(target);
  await reach(reference).catch((err: unknown) => {
    throw new UnreachableError(`the reference: ${(err as Error).message}`);
  });
  const suite = options.scenarios ?? paritySuite();
  const run = Math.random().toString(36).slice(2, 8);
  const sides = { reference: sideContext(reference, names, run), target: sideContext(target, names, run) };
  const lacks = new Map<Need, string | null>();
  for (const need of new Set(suite.flatMap((s) => s.needs))) {
    lacks.set(need, (await lack(target, need, names, 'target')) ?? (await lack(reference, need, names, 'reference')));
  }
  const scenarios: ScenarioReport[] = [];
  for (const s of suite) {
    const base = { id: s.id, operationId: s.operationId, behaviour: s.behaviour };
    const missing = s.needs.map((n) => lacks.get(n)).find((why) => why);
    if (missing) {
      scenarios.push({ ...base, status: 'skipped', reason: missing, differences: [] });
      continue;
    }
    try {
      const [r, t] = await Promise.all([s.play(sides.reference), s.play(sides.target)]);
      const differences = compareAnswers(r.answer, t.answer, { settled: r.settled && t.settled, list: s.list });
      scenarios.push({ ...base, status: differences.length ? 'different' : 'same', referenceStatus: r.answer.status, differences });
    } catch (err) {
      if (!(err instanceof SetupError)) throw err;
      scenarios.push({ ...base, status: 'skipped', reason: `a request that sets it up failed: ${err.message}`, differences: [] });
    }
  }
  const count = (v: Verdict) => scenarios.filter((s) => s.status === v).length;
  return {
    target: target.url,
    reference: reference.url,
    scenarios,
    summary: { same: count('same'), different: count('different'), skipped: count('skipped') },
    coverage: SERVER_OPERATIONS.map((op) => ({
      operationId: op.id,
      behaviours: Object.fromEntries(scenarios.filter((s) => s.operationId === op.id).map((s) => [s.behaviour, s.status])),
    })),
  };
}

const show = (value: unknown) => {
  const text = typeof value === 'string' && value === '(absent)' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** A difference as a line: `operationId status JSON-path: reference value ≠ target value`. */
export function differenceLine(scenario: ScenarioReport, d: Difference): string {
  return `${scenario.operationId} ${scenario.referenceStatus ?? ''} ${d.path}: ${show(d.reference)} ≠ ${show(d.target)}`;
}

/** The plain report: one line per scenario (`same`, `different`, `skipped: <why>`), each difference below its scenario. */
export function reportLines(report: ParityReport): string {
  const lines = [`oz-mock parity: ${report.target} against ${report.reference}`];
  for (const s of report.scenarios) {
    lines.push(`${s.id} ${s.status === 'skipped' ? `skipped: ${s.reason}` : s.status}`);
    for (const d of s.differences) lines.push(`  ${differenceLine(s, d)}`);
  }
  const { same, different, skipped } = report.summary;
  lines.push(`${same} same, ${different} different, ${skipped} skipped`);
  return `${lines.join('\n')}\n`;
}
