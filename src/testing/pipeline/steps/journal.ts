import { replyStatus, type Reply } from '../../wire/requestOutcome.js';
import type { Connection } from '../../wire/connection.js';
import { journalHeaders, type JournalEntry, type JournalHeaders } from '../../harness/journal.js';
import { redactAdminTokens } from '../../support/adminTokenText.js';
import { splitUrl } from '../../support/requestUrl.js';
import type { OpenJournalEntry, ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';
import { faultAccount } from './fault.js';

/**
 * A journal entry; its `headers` are built only when a test reads them (over HTTP a copy of every header). An
 * admin token is redacted as the entry is recorded (path and query here, headers in `journalHeaders`, the body in
 * `keepBody`): every view of a request reads this record (the journal in process and over HTTP, its HAR, the live
 * feed, `--log`, a 404's message).
 */
class JournalRecord implements OpenJournalEntry {
  readonly requestId: string;
  operationId: string | null = null;
  readonly mount: Connection['mount'];
  readonly surface: Connection['surface'];
  readonly method: string;
  readonly path: string;
  readonly query: string;
  body: string | null = null;
  bodyLength: number | null = null;
  bodyTruncated = false;
  account: string | null = null;
  status: number | null = null;
  executionId: string | null = null;
  fault: JournalEntry['fault'] = null;
  chaos: JournalEntry['chaos'] = null;
  replayed = false;
  proxied: string | null = null;
  answeredBy: JournalEntry['answeredBy'] = null;
  readonly at: number;
  readonly #readHeaders: () => Headers;
  #headerCopy: JournalHeaders | null = null;

  constructor(ctx: ServerExchange, at: number) {
    const { request, conn } = ctx;
    const target = splitUrl(request.url);
    this.requestId = ctx.requestId;
    this.mount = conn.mount;
    this.surface = conn.surface;
    this.method = request.method;
    this.path = redactAdminTokens(target.path);
    this.query = redactAdminTokens(target.query);
    this.at = at;
    this.#readHeaders = conn.reader.headerSource();
  }

  get headers(): JournalHeaders {
    return (this.#headerCopy ??= journalHeaders(this.#readHeaders()));
  }
}

/** What the entry records of the answer: its status, and the account, execution, replay and proxy it had. */
function finishEntry(ctx: ServerExchange, entry: JournalEntry, answer: Reply): void {
  const request = ctx.ctx;
  entry.account = request.principal?.account.name ?? (ctx.fault ? faultAccount(ctx.world.parts, request) : null);
  entry.status = replyStatus(answer);
  entry.executionId = request.executionId;
  entry.replayed = request.replayed;
  entry.proxied = request.proxied;
}

/**
 * Step: the request's journal entry, opened before the route step (a 404 and a preflight are journaled too) and
 * finished with what answered. A dropped request keeps its entry as it was (no status).
 */
export const journal: ServerStep<ServerExchange> = async (ctx, next) => {
  const { parts } = ctx.world;
  const entry = new JournalRecord(ctx, parts.clock.now());
  parts.journal.add(entry);
  ctx.entry = entry;
  const answer = await next();
  if (answer.kind !== 'dropped') finishEntry(ctx, entry, answer);
  return answer;
};
