/** A parsed five-field cron expression: the allowed values of each field. */
export interface CronSpec {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly weekdays: ReadonlySet<number>;
  /** Day of month and day of week both restricted: either may match (cron's rule). */
  readonly dayOr: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function parseField(field: string, min: number, max: number, names?: readonly string[]): Set<number> | null {
  const out = new Set<number>();
  const value = (s: string): number => {
    const i = names?.indexOf(s.toLowerCase()) ?? -1;
    if (i >= 0) return i + min;
    return /^\d+$/.test(s) ? Number(s) : NaN;
  };
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) ? Number(stepText) : NaN;
    if (!(step >= 1) || range === undefined) return null;
    let lo: number;
    let hi: number;
    if (range === '*') {
      lo = min;
      hi = max;
    } else if (range.includes('-')) {
      const [a, b] = range.split('-');
      lo = value(a ?? '');
      hi = value(b ?? '');
    } else {
      lo = value(range);
      hi = stepText === undefined ? lo : max;
    }
    if (!(lo >= min && hi <= max && lo <= hi)) return null;
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** Parses a five-field cron expression (numbers, names, `*`, ranges, lists, steps), or `null` when invalid. */
export function parseCron(expression: string): CronSpec | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [m, h, dom, mon, dow] = fields as [string, string, string, string, string];
  const minutes = parseField(m, 0, 59);
  const hours = parseField(h, 0, 23);
  const days = parseField(dom, 1, 31);
  const months = parseField(mon, 1, 12, MONTHS);
  const weekdaysRaw = parseField(dow, 0, 7, WEEKDAYS);
  if (!minutes || !hours || !days || !months || !weekdaysRaw) return null;
  const weekdays = new Set([...weekdaysRaw].map((d) => d % 7));
  return { minutes, hours, days, months, weekdays, dayOr: dom !== '*' && dow !== '*' };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether an IANA time zone is known. */
export function isTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

function localParts(ms: number, zone: string): { month: number; day: number; hour: number; minute: number; weekday: number } {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(zone).formatToParts(ms)) parts[p.type] = p.value;
  return {
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf((parts.weekday ?? '').toLowerCase().slice(0, 3)),
  };
}

const MINUTE = 60_000;

/** The first minute after `after` (ms) when the cron fires in the time zone, or `null` within five years. */
export function nextCronRun(spec: CronSpec, zone: string, after: number): number | null {
  let t = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  const limit = after + 5 * 366 * 24 * 60 * MINUTE;
  while (t <= limit) {
    const p = localParts(t, zone);
    const dayOk = spec.dayOr ? spec.days.has(p.day) || spec.weekdays.has(p.weekday) : spec.days.has(p.day) && spec.weekdays.has(p.weekday);
    if (!spec.months.has(p.month) || !dayOk) {
      t += ((23 - p.hour) * 60 + (60 - p.minute)) * MINUTE;
    } else if (!spec.hours.has(p.hour)) {
      t += (60 - p.minute) * MINUTE;
    } else if (!spec.minutes.has(p.minute)) {
      t += MINUTE;
    } else {
      return t;
    }
  }
  return null;
}
