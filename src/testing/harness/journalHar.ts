import { harDocument, harEntry, type Har } from '../recording/har.js';
import { credentialValues } from '../recording/redaction.js';

/** What the HAR of an entry reads (the journal's entry has these fields and more). */
export interface JournaledRequest {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly bodyLength: number | null;
  readonly bodyTruncated: boolean;
  readonly status: number | null;
  readonly operationId: string | null;
  readonly fault: string | null;
}

/**
 * Journal entries as a HAR 1.2 document, redacted as a recording is (credential headers read `<redacted>`, no key
 * value anywhere). The journal keeps requests, not answer bodies: each response holds the status alone.
 */
export function journalHar(entries: readonly JournaledRequest[]): Har {
  return harDocument(
    entries.map((entry) => {
      const headers = Object.entries(entry.headers);
      // A Host header is the caller's: one that does not make a URL is left out.
      const sent = entry.headers.host;
      const host = sent !== undefined && /^[A-Za-z0-9.:[\]-]+$/.test(sent) && URL.canParse(`http://${sent}/`) ? sent : 'oz.test';
      return harEntry(
        {
          startedAt: entry.at,
          durationMs: 0,
          method: entry.method,
          url: `http://${host}${entry.path}${entry.query ? `?${entry.query}` : ''}`,
          requestHeaders: headers,
          requestBody: entry.body === null ? null : { text: entry.body, size: entry.bodyLength ?? 0, truncated: entry.bodyTruncated },
          status: entry.status ?? 0,
          statusText: '',
          responseHeaders: [],
          responseBody: null,
          operationId: entry.operationId,
          ...(entry.fault !== null ? { comment: `fault: ${entry.fault}` } : {}),
        },
        credentialValues(headers),
      );
    }),
    'the journal of oz-mock: requests as received, answers by status',
  );
}
