import type { JournalEntry } from './journal.js';

/** What a fault does to a matching request. */
export type FaultAction =
  /** Answer this error instead of handling the request (nothing is written). */
  | { readonly type: 'error'; readonly status: number; readonly code: string; readonly message?: string; readonly retryAfter?: number }
  /** Wait `ms` of the server clock before handling the request (an aborted request is then not handled). */
  | { readonly type: 'delay'; readonly ms: number }
  /** Drop the connection without handling the request: nothing is written. */
  | { readonly type: 'drop' }
  /** Handle the request, then cut its event stream after `afterEvents` events (non-stream answers: as `lose`). */
  | { readonly type: 'cut'; readonly afterEvents: number }
  /** Handle the request (the execution runs and is recorded), then drop the connection instead of answering. */
  | { readonly type: 'lose' };

/** Which requests a fault applies to: every given field must match; none given matches every request. */
export interface FaultScope {
  /** An operationId of openapi.json (`mcpRequest` also covers the MCP server's own URL). */
  readonly operationId?: string;
  readonly method?: string;
  /** An exact path, or a pattern. */
  readonly path?: string | RegExp;
  /** How many matching requests it applies to. Default 1. */
  readonly times?: number;
}

/** A fault to inject: an action and its scope. */
export type FaultSpec = FaultAction & FaultScope;

/** A fault that was added: how often it will still apply, and a way to withdraw it. */
export interface FaultHandle {
  readonly remaining: number;
  cancel(): void;
}

/** Fault injection for the next N matching requests. */
export interface OzFaults {
  /** Adds a fault; faults apply in the order added, one per request. */
  add(fault: FaultSpec): FaultHandle;
  /** Withdraws every fault. */
  clear(): void;
  /** The faults still pending. */
  readonly pending: readonly FaultSpec[];
}

interface Armed {
  readonly spec: FaultSpec;
  remaining: number;
}

/** The faults of a server. */
export class Faults implements OzFaults {
  private armed: Armed[] = [];

  get pending(): readonly FaultSpec[] {
    return this.armed.map((a) => a.spec);
  }

  add(fault: FaultSpec): FaultHandle {
    if (fault.type === 'cut' && !(fault.afterEvents >= 0)) throw new RangeError('cut needs afterEvents >= 0');
    const armed: Armed = { spec: fault, remaining: fault.times ?? 1 };
    this.armed.push(armed);
    const list = () => this.armed;
    return {
      get remaining() {
        return list().includes(armed) ? armed.remaining : 0;
      },
      cancel: () => {
        this.armed = this.armed.filter((a) => a !== armed);
      },
    };
  }

  clear(): void {
    this.armed = [];
  }

  /** The fault for a request, counted as used, or `null`. */
  take(entry: JournalEntry): FaultSpec | null {
    if (this.armed.length === 0) return null;
    for (const a of this.armed) {
      const s = a.spec;
      if (s.operationId !== undefined && s.operationId !== entry.operationId) continue;
      if (s.method !== undefined && s.method.toUpperCase() !== entry.method) continue;
      if (s.path !== undefined && (typeof s.path === 'string' ? s.path !== entry.path : !s.path.test(entry.path))) continue;
      if (--a.remaining <= 0) this.armed = this.armed.filter((x) => x !== a);
      return s;
    }
    return null;
  }
}
