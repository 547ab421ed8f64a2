import type { ErrorCode } from '../../generated/types.js';
import { checkNesting } from '../contract/nesting.js';
import { ERROR_CODE_STATUS } from '../contract/declaredErrors.js';
import { jsonSubset } from '../support/jsonSubset.js';
import { LinearPattern } from '../support/linearPattern.js';
import { normalDraw, seededRandom } from '../support/seededRandom.js';
import { checkChaosDocument, declaredFor, type ChaosDocument, type ChaosFault, type ChaosLatency, type ChaosRule } from './chaosDocument.js';
import type { FaultRequestFacts, FaultSpec } from './faults.js';
import type { JournalChaos, JournalEntry } from './journal.js';
import { inScope, type RequestScope } from './requestScope.js';

export type { ChaosDocument, ChaosFault, ChaosLatency, ChaosMatch, ChaosRule } from './chaosDocument.js';

/** The chaos of a server or a session: rules that fire at a rate, drawn from a seed (see {@link ChaosDocument}). */
export interface OzChaos {
  /**
   * Replaces the rules and starts the generator at the document's seed. A bad document throws a `TypeError`
   * naming the field (`rules[0].probability must be a number from 0 to 1`) and changes nothing.
   */
  set(doc: ChaosDocument): void;
  /** The document set, or `null`. */
  get(): ChaosDocument | null;
  /** Withdraws every rule. */
  clear(): void;
}

/** What a fired rule puts on a request: the fault, and the journal's note of the rule and the draw. */
export interface ChaosDraw {
  readonly fault: FaultSpec;
  readonly chaos: JournalChaos;
}

/** A rule ready to match: its scope with the path pattern compiled. */
interface ArmedRule {
  readonly rule: ChaosRule;
  readonly scope: RequestScope;
}

function armed(rule: ChaosRule): ArmedRule {
  const m = rule.match ?? {};
  const path = m.pathPattern !== undefined ? new LinearPattern(m.pathPattern) : m.path;
  return {
    rule,
    scope: {
      ...(m.operationId !== undefined ? { operationId: m.operationId } : {}),
      ...(m.method !== undefined ? { method: m.method } : {}),
      ...(path !== undefined ? { path } : {}),
    },
  };
}

/** A latency's ms for this draw (lognormal: median x e^(sigma x N(0,1)), capped at max). */
function latencyMs(latency: ChaosLatency, random: () => number): number {
  if ('ms' in latency) return latency.ms;
  if ('uniform' in latency) return latency.uniform.min + random() * (latency.uniform.max - latency.uniform.min);
  const { median, sigma, max } = latency.lognormal;
  return Math.min(max, median * Math.exp(sigma * normalDraw(random)));
}

/** The error of an error fault for this request: its code, or one drawn among the declared ones. */
function errorFault(fault: Extract<ChaosFault, { type: 'error' }>, operationId: string | null, random: () => number): FaultSpec | null {
  let code: ErrorCode;
  let status: number;
  if (fault.code === 'declared') {
    const candidates = operationId === null ? [] : declaredFor(operationId, fault.status);
    if (candidates.length === 0) return null;
    const pick = candidates[Math.floor(random() * candidates.length)]!;
    code = pick.code;
    status = pick.status;
  } else {
    code = fault.code;
    status = fault.status ?? ERROR_CODE_STATUS.get(code)!;
  }
  // A 429 or 503 without `retryAfter` gets `Retry-After: 1` where every error fault is answered (scriptedRetryAfter).
  const { retryAfter } = fault;
  return { type: 'error', status, code, message: fault.message ?? `Chaos: ${code}.`, ...(retryAfter !== undefined ? { retryAfter } : {}) };
}

/** The fault a fired rule applies, its variable parts drawn from the generator. */
function faultOf(fault: ChaosFault, operationId: string | null, random: () => number): FaultSpec | null {
  switch (fault.type) {
    case 'error':
      return errorFault(fault, operationId, random);
    case 'delay':
      return { type: 'delay', ms: latencyMs(fault, random) };
    case 'cut':
      return { type: 'cut', afterEvents: fault.afterEvents };
    case 'dribble':
      return { type: 'dribble', ms: fault.ms };
    default:
      return { type: fault.type };
  }
}

/** The chaos of one world (a server or a session). */
export class Chaos implements OzChaos {
  #doc: ChaosDocument | null = null;
  #rules: readonly ArmedRule[] = [];
  #random: () => number = Math.random;

  set(doc: ChaosDocument): void {
    checkNesting(doc, 'The chaos document');
    checkChaosDocument(doc);
    let copy: ChaosDocument;
    try {
      copy = structuredClone(doc);
    } catch {
      throw new TypeError('A chaos document holds plain data only (no functions)');
    }
    this.#rules = copy.rules.map(armed);
    this.#random = seededRandom(copy.seed);
    this.#doc = copy;
  }

  get(): ChaosDocument | null {
    return this.#doc === null ? null : structuredClone(this.#doc);
  }

  clear(): void {
    this.#doc = null;
    this.#rules = [];
  }

  /**
   * The first rule that matches the request draws; when the draw falls under its probability, the fault it
   * fires (a `"declared"` error on an operation that declares none fires nothing).
   */
  draw(entry: JournalEntry, facts: FaultRequestFacts): ChaosDraw | null {
    if (this.#rules.length === 0) return null;
    for (let i = 0; i < this.#rules.length; i++) {
      const { rule, scope } = this.#rules[i]!;
      const m = rule.match;
      if (!inScope(entry, scope)) continue;
      if (m?.account !== undefined && m.account !== facts.account()) continue;
      if (m?.body !== undefined && !jsonSubset(facts.body(), m.body)) continue;
      const draw = this.#random();
      if (draw >= rule.probability) return null;
      const fault = faultOf(rule.fault, entry.operationId, this.#random);
      return fault === null ? null : { fault, chaos: { rule: i, draw } };
    }
    return null;
  }
}
