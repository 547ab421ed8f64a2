import type { ReadEvent } from './exchange.js';

/** A stream's events grouped in runs of one name (`token` ×n is one run), each event with its index in the stream. */
interface Run {
  readonly name: string;
  readonly events: ReadonlyArray<{ readonly index: number; readonly data: string }>;
}

/** The name an event compares by: `[DONE]` for a chat stream's end, else its event name. */
const nameOf = (e: ReadEvent): string => (e.data === '[DONE]' ? '[DONE]' : e.event);

/** The events in runs of one name, in order. */
export function eventRuns(events: readonly ReadEvent[]): Run[] {
  const runs: Array<{ name: string; events: Array<{ index: number; data: string }> }> = [];
  events.forEach((e, index) => {
    const name = nameOf(e);
    const last = runs.at(-1);
    if (last && last.name === name) last.events.push({ index, data: e.data });
    else runs.push({ name, events: [{ index, data: e.data }] });
  });
  return runs;
}

/** The JSON value of an event's data, or its text. */
export function eventValue(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/**
 * The pairs of events whose data are compared by shape, once both streams have the same names in the same order:
 * within each run, event by event as far as the shorter run goes (a stream of more tokens is no difference). Each
 * pair is named by the target's event index and name (`events[3](token).data`).
 */
export function eventPairs(
  reference: readonly ReadEvent[],
  target: readonly ReadEvent[],
): Array<{ readonly at: string; readonly reference: unknown; readonly target: unknown }> {
  const r = eventRuns(reference);
  const t = eventRuns(target);
  const out: Array<{ at: string; reference: unknown; target: unknown }> = [];
  r.forEach((run, k) => {
    const other = t[k]!;
    for (let i = 0; i < Math.min(run.events.length, other.events.length); i++) {
      const here = other.events[i]!;
      if (run.name === '[DONE]') continue;
      out.push({ at: `events[${here.index}](${run.name}).data`, reference: eventValue(run.events[i]!.data), target: eventValue(here.data) });
    }
  });
  return out;
}
