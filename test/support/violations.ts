/**
 * The answers of embedded servers that openapi.json does not describe, collected while a test runs. Kept apart
 * from `ozServer.ts` (which loads the server, Ajv and openapi.json) so that the `setupFiles` entry reading it,
 * `ozServerSetup.ts`, costs a test file that makes no server nothing.
 */

/** A response the document does not describe. */
export interface Violation {
  readonly operationId: string | null;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly problems: readonly string[];
}

const violations: Violation[] = [];
const pending = new Set<Promise<void>>();

/** Follows one answer's check under way: `takeViolations` waits for it; what it finds is added with `addViolation`. */
export function followCheck(task: Promise<void>): void {
  pending.add(task);
  void task.finally(() => pending.delete(task));
}

/** Notes an answer the document does not describe. */
export function addViolation(violation: Violation): void {
  violations.push(violation);
}

/**
 * Waits for the validations under way (streams still open after `timeoutMs` are left alone) and answers the
 * violations found since the last call, forgetting them.
 */
export async function takeViolations(timeoutMs = 2000): Promise<Violation[]> {
  if (pending.size) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled([...pending]), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }
  return violations.splice(0, violations.length);
}
