// The calls whose caller asked for the raw answer (`asResponse()` of its promise): the attempt step leaves their
// body unread.
const HANDED_OVER = new WeakSet<object>();

/** Marks a call's promise as one whose body goes to its caller unread (its `asResponse()`). */
export function handOver(promise: object): void {
  HANDED_OVER.add(promise);
}

/** Whether `asResponse()` was called on this call's promise (the attempt step asks when the answer's headers come). */
export function handedOver(promise: object): boolean {
  return HANDED_OVER.has(promise);
}
