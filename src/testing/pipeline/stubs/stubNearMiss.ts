import type { JournalEntry } from '../../harness/journal.js';
import { fieldDifference, parsedBody, pathParams, queryParams, recordDifferences, subsetDifferences, type Difference } from '../../harness/nearMisses.js';
import { serverOperationNamed } from '../../contract/operations.js';
import { isPlainObject } from '../../support/plainObject.js';
import { lastUserMessageTest, lastUserText } from './chatScript.js';
import { requestStreams } from './stubEvents.js';
import type { StubView } from './stubs.js';

/** What of a chat completion's last user message differs from `match.lastUserMessage`. */
function lastUserDifference(stub: StubView, body: Record<string, unknown>): Difference[] {
  const expected = stub.match.lastUserMessage;
  const op = serverOperationNamed(stub.operationId);
  if (expected === undefined || op === undefined) return [];
  const text = lastUserText(body);
  return lastUserMessageTest(expected, op)(text) ? [] : [{ path: 'lastUserMessage', expected, actual: text }];
}

/** A streamed answer answers only requests that stream: one that did not differs on `body.stream`. */
function streamDifference(stub: StubView, body: Record<string, unknown>): Difference[] {
  const op = serverOperationNamed(stub.operationId);
  const answer = stub.answer;
  if (op === undefined || !isPlainObject(answer) || answer.events === undefined || requestStreams(op, body)) return [];
  return [{ path: 'body.stream', expected: true, actual: body.stream }];
}

/**
 * What of a request differs from a stub's match: each path parameter, query parameter and body field it names,
 * the account, the last user message, and (for a streamed answer) whether the request streamed. A request
 * that differs on none of them is no miss.
 */
export function stubDifferences(entry: JournalEntry, stub: StubView): Difference[] {
  const m = stub.match;
  const parsed = parsedBody(entry);
  const body = isPlainObject(parsed) ? parsed : {};
  return [
    ...recordDifferences(m.path, pathParams(entry), 'path'),
    ...recordDifferences(m.query, queryParams(entry), 'query'),
    ...(m.body === undefined ? [] : subsetDifferences(m.body, parsed ?? {}, 'body')),
    ...fieldDifference('account', m.account, entry.account),
    ...lastUserDifference(stub, body),
    ...streamDifference(stub, body),
  ];
}
