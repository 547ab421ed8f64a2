import type { OperationId } from '../../generated/operations.js';
import { DECLARED_RESPONSES, type DeclaredResponse } from '../contract/declaredResponses.js';
import type { CoverageResponse, OzCoverageReport } from './coverage.js';
import { OzCoverageError } from './coverageError.js';

/**
 * A response that must be covered. As a string: `operationId status [code] [streamed]`, words apart
 * (`'executeTool 424 connection_required'`, `'createCompanyItem 409'`: any 409 of it, `'executeAgent 200
 * streamed'`). As an object: `{ operationId, status, code?, streamed? }`. A part left out matches any; the
 * entry must name a response openapi.json declares, else a `TypeError`.
 */
export type CoverageRequirement =
  | string
  | {
      readonly operationId: OperationId;
      readonly status: number;
      /** The error code; `null` names the code-less answer; left out: any. */
      readonly code?: string | null;
      /** Left out: streamed or not. */
      readonly streamed?: boolean;
    };

/** The limits of a coverage gate (`expectCoverage`, `oz-mock --min-coverage`). */
export interface CoverageLimits {
  /** The least share (0 to 1) of the declared responses of the operations the run called that must be covered. */
  readonly min?: number;
  /** Responses that must be covered, whether or not their operation was called. */
  readonly require?: readonly CoverageRequirement[];
}

/** A requirement read and checked. */
interface Requirement {
  readonly name: string;
  readonly operationId: OperationId;
  readonly status: number;
  readonly code: string | null | undefined;
  readonly streamed: boolean | undefined;
}

/** A response's name in messages and in `require`: `executeTool 424 connection_required`, `executeAgent 200 streamed`. */
export function responseName(operationId: string, response: Pick<DeclaredResponse, 'status' | 'code' | 'streamed'>): string {
  return [operationId, String(response.status), ...(response.code === null ? [] : [response.code]), ...(response.streamed ? ['streamed'] : [])].join(' ');
}

const fits = (r: Requirement, response: Pick<DeclaredResponse, 'status' | 'code' | 'streamed'>) =>
  response.status === r.status && (r.code === undefined || response.code === r.code) && (r.streamed === undefined || response.streamed === r.streamed);

/** A requirement's parts from its string form; a malformed one is a `TypeError` naming it. */
function fromString(entry: string, where: string): Omit<Requirement, 'name'> {
  const words = entry.trim().split(/\s+/);
  const [operationId = '', statusText = '', ...rest] = words;
  const streamed = rest.includes('streamed') ? true : undefined;
  const codes = rest.filter((w) => w !== 'streamed');
  if (!/^[1-5]\d\d$/.test(statusText) || codes.length > 1 || rest.filter((w) => w === 'streamed').length > 1) {
    throw new TypeError(`${where}: ${JSON.stringify(entry)} is not "operationId status [code] [streamed]" (for example "executeTool 424 connection_required")`);
  }
  return { operationId: operationId as OperationId, status: Number(statusText), code: codes[0], streamed };
}

/** One entry of `require`, checked: its operation, status, code and form must name a declared response. */
function requirementOf(entry: unknown, index: number): Requirement {
  const where = `require[${index}]`;
  let parts: Omit<Requirement, 'name'>;
  if (typeof entry === 'string') parts = fromString(entry, where);
  else if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
    const o = entry as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!['operationId', 'status', 'code', 'streamed'].includes(k))
        throw new TypeError(`${where}: ${k} is not a field of a requirement (known: operationId, status, code, streamed)`);
    if (typeof o.operationId !== 'string') throw new TypeError(`${where}: operationId must be a string`);
    if (!Number.isInteger(o.status)) throw new TypeError(`${where}: status must be an HTTP status (an integer), not ${JSON.stringify(o.status)}`);
    if (o.code !== undefined && o.code !== null && typeof o.code !== 'string') throw new TypeError(`${where}: code must be a string or null`);
    if (o.streamed !== undefined && typeof o.streamed !== 'boolean') throw new TypeError(`${where}: streamed must be true or false`);
    parts = {
      operationId: o.operationId as OperationId,
      status: o.status as number,
      code: o.code as string | null | undefined,
      streamed: o.streamed as boolean | undefined,
    };
  } else
    throw new TypeError(
      `${where} must be a string ("executeTool 424 connection_required") or { operationId, status, code?, streamed? }, not ${JSON.stringify(entry)}`,
    );
  const declared = DECLARED_RESPONSES.get(parts.operationId);
  if (!declared) throw new TypeError(`${where}: ${JSON.stringify(parts.operationId)} is not an operationId of openapi.json`);
  const name = [parts.operationId, String(parts.status), ...(typeof parts.code === 'string' ? [parts.code] : []), ...(parts.streamed ? ['streamed'] : [])].join(
    ' ',
  );
  const requirement = { ...parts, name };
  if (!declared.some((r) => fits(requirement, r))) {
    throw new TypeError(
      `${where}: ${JSON.stringify(name)} is no response openapi.json declares (${parts.operationId} declares: ${declared.map((r) => responseName(parts.operationId, r).slice(parts.operationId.length + 1)).join(', ')})`,
    );
  }
  return requirement;
}

/** The limits checked: `min` from 0 to 1, every `require` entry a declared response; else a `TypeError` naming it. */
export function checkCoverageLimits(limits: CoverageLimits): { readonly min: number | undefined; readonly require: readonly Requirement[] } {
  if (typeof limits !== 'object' || limits === null) throw new TypeError('the coverage limits must be an object: { min?, require? }');
  for (const k of Object.keys(limits)) if (k !== 'min' && k !== 'require') throw new TypeError(`${k} is not a coverage limit (known: min, require)`);
  const { min, require = [] } = limits;
  if (min !== undefined && !(typeof min === 'number' && min >= 0 && min <= 1))
    throw new TypeError(`min must be a share from 0 to 1 (0.8 for 80 %), not ${JSON.stringify(min)}`);
  if (!Array.isArray(require)) throw new TypeError('require must be a list of responses');
  return { min, require: require.map((entry: unknown, i) => requirementOf(entry, i)) };
}

const percent = (share: number) => `${(Math.round(share * 1000) / 10).toString()} %`;

/**
 * What a report misses of the limits: `null` when it meets them, else the message naming every missed response
 * (below `min`: every declared response of the operations called that no request got; of `require`: each entry
 * no response fits with a count) and their names.
 */
export function coverageShortfall(report: OzCoverageReport, limits: CoverageLimits): { readonly message: string; readonly missed: readonly string[] } | null {
  const checked = checkCoverageLimits(limits);
  const lines: string[] = [];
  const missed: string[] = [];
  const { summary } = report;
  if (checked.min !== undefined && summary.share < checked.min) {
    const below = report.operations
      .filter((o) => o.calls > 0)
      .flatMap((o) => o.responses.filter((r) => r.declared && r.count === 0).map((r) => responseName(o.operationId, r)));
    lines.push(
      `Coverage ${summary.covered} of ${summary.declared} declared responses of the operations called (${percent(summary.share)}) is below the minimum ${percent(checked.min)}. Missed:`,
      ...below.map((n) => `  ${n}`),
    );
    missed.push(...below);
  }
  const byOperation = new Map(report.operations.map((o) => [o.operationId, o.responses]));
  const notCovered = checked.require
    .filter((r) => !(byOperation.get(r.operationId) ?? []).some((response: CoverageResponse) => response.count > 0 && fits(r, response)))
    .map((r) => r.name);
  if (notCovered.length) {
    lines.push('Required responses no request got:', ...notCovered.map((n) => `  ${n}`));
    missed.push(...notCovered);
  }
  return lines.length === 0 ? null : { message: lines.join('\n'), missed };
}

/** A report, or what has one (an `OzServer`, a session). */
export type CoverageSource = OzCoverageReport | { coverage(): OzCoverageReport };

/**
 * The coverage gate of a test suite: throws {@link OzCoverageError}, naming every missed response, when the run
 * covered less of openapi.json than `limits` ask. Call it in vitest's or jest's `afterAll` (it only throws), with
 * the server, a session, or a report (`await (await fetch(url + '/_oz/coverage', ...)).json()` of an oz-mock).
 *
 * @example
 * ```ts
 * afterAll(() => expectCoverage(server, { min: 0.6, require: ['executeTool 424 connection_required'] }));
 * ```
 */
export function expectCoverage(source: CoverageSource, limits: CoverageLimits = {}): void {
  if (typeof (source as { then?: unknown } | null)?.then === 'function')
    throw new TypeError('expectCoverage() takes a report, not a promise of one: await it first (expectCoverage(await mock.coverage(), ...))');
  const report = typeof source === 'object' && source !== null && 'coverage' in source && typeof source.coverage === 'function' ? source.coverage() : source;
  const shape = (report ?? {}) as Partial<OzCoverageReport>;
  if (!Array.isArray(shape.operations) || typeof shape.summary !== 'object' || shape.summary === null) {
    throw new TypeError('expectCoverage() takes a server, a session or a coverage report ({ operations, summary })');
  }
  const shortfall = coverageShortfall(report as OzCoverageReport, limits);
  if (shortfall) throw new OzCoverageError(shortfall.message, shortfall.missed, report as OzCoverageReport);
}
