import type { JournalEntry } from '../harness/journal.js';
import { isoTime } from '../support/isoTime.js';

/**
 * A journal entry as the control plane answers it: plain JSON, its `headers` the record the in-process entry has,
 * with key values cut to their prefix and four characters (an admin token is redacted in the entry itself).
 */
export interface JournalEntryView extends Readonly<JournalEntry> {
  /** The arrival time (`at`), RFC 3339. */
  readonly time: string;
}

// Every key shape the server knows: platform and legacy keys (the entry holds no admin token).
const CREDENTIAL = /(ozk_|sk-mdl-|sk-prx-)([A-Za-z0-9]{0,4})[A-Za-z0-9]*/g;

/** A header value with every key cut to its prefix and four characters. */
export function redactCredentials(value: string): string {
  return value.replace(CREDENTIAL, (_, prefix: string, head: string) => `${prefix}${head}…`);
}

/** The JSON view of an entry. */
export function journalEntryView(entry: JournalEntry): JournalEntryView {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.headers)) headers[name] = redactCredentials(value);
  return {
    requestId: entry.requestId,
    operationId: entry.operationId,
    mount: entry.mount,
    surface: entry.surface,
    method: entry.method,
    path: entry.path,
    query: entry.query,
    headers,
    // A body is the caller's data and stays as the entry holds it.
    body: entry.body,
    bodyLength: entry.bodyLength,
    bodyTruncated: entry.bodyTruncated,
    account: entry.account,
    status: entry.status,
    executionId: entry.executionId,
    fault: entry.fault,
    chaos: entry.chaos,
    replayed: entry.replayed,
    proxied: entry.proxied,
    answeredBy: entry.answeredBy,
    at: entry.at,
    time: isoTime(entry.at),
  };
}
