// One 'abort' listener per caller's signal, however many calls, attempts and waits follow it: a listener each
// would pass EventTarget's limit (10) with a few concurrent calls, and Node would print a
// MaxListenersExceededWarning about a leak that is not one.

interface Followers {
  readonly all: Set<(reason: unknown) => void>;
  readonly listener: () => void;
}

const FOLLOWED = new WeakMap<AbortSignal, Followers>();

/**
 * Runs `follower` with the signal's reason once `signal` aborts (the signal must not have aborted yet). Answers the
 * function that stops following it; the signal's one listener is removed when its last follower stops.
 */
export function followAbort(signal: AbortSignal, follower: (reason: unknown) => void): () => void {
  let followers = FOLLOWED.get(signal);
  if (followers === undefined) {
    const all = new Set<(reason: unknown) => void>();
    const listener = () => {
      FOLLOWED.delete(signal);
      for (const each of all) each(signal.reason);
    };
    followers = { all, listener };
    FOLLOWED.set(signal, followers);
    signal.addEventListener('abort', listener, { once: true });
  }
  const { all, listener } = followers;
  // A function added twice would be run once and removed by the first to stop: each follows as its own entry.
  const entry = (reason: unknown) => follower(reason);
  all.add(entry);
  return () => {
    if (!all.delete(entry) || all.size > 0) return;
    signal.removeEventListener('abort', listener);
    if (FOLLOWED.get(signal) === followers) FOLLOWED.delete(signal);
  };
}
