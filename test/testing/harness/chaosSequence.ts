/** One sequence of requests and one chaos document, for the tests that replay it on each mount. */
import type { ChaosDocument, OzServer } from '../../../src/testing/index.js';

/** Every kind of fault the sequence meets: declared errors, drops, lost answers, latencies. */
export const SEQUENCE_DOCUMENT: ChaosDocument = {
  seed: 20261207,
  rules: [
    { match: { operationId: 'executeTool' }, probability: 0.4, fault: { type: 'error', code: 'declared', retryAfter: 0 } },
    { match: { method: 'GET', path: '/v1/tools' }, probability: 0.3, fault: { type: 'drop' } },
    { match: { operationId: 'listExecutions' }, probability: 0.3, fault: { type: 'lose' } },
    { probability: 0.4, fault: { type: 'delay', uniform: { min: 1, max: 5 } } },
  ],
};

/** The requests of the sequence, against a base URL with a key. */
function requests(base: string, apiKey: string): Request[] {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const out: Request[] = [];
  for (let i = 0; i < 12; i++) {
    out.push(new Request(`${base}/v1/tools/echo/execute`, { method: 'POST', headers, body: JSON.stringify({ text: `n${i}` }) }));
    out.push(new Request(`${base}/v1/tools`, { headers }));
    out.push(new Request(`${base}/v1/executions?limit=1`, { headers }));
    out.push(new Request(`${base}/v1/agents`, { headers }));
  }
  return out;
}

/** What each request of the sequence got, in order: `status code`, or `dropped` (no answer). */
export async function chaosSequence(send: (request: Request) => Promise<Response>, base = 'http://api.oz.test', apiKey?: string): Promise<string[]> {
  const out: string[] = [];
  for (const request of requests(base, apiKey ?? '')) {
    try {
      const res = await send(request);
      await res.arrayBuffer();
      out.push(`${res.status} ${res.headers.get('x-error-code') ?? ''}`.trim());
    } catch {
      out.push('dropped');
    }
  }
  return out;
}

/** The journal's record of the sequence: operation, fault, chaos, status. */
export function outcomesOf(server: OzServer): Array<{ operationId: string | null; fault: string | null; chaos: unknown; status: number | null }> {
  return server.journal.entries.map((e) => ({ operationId: e.operationId, fault: e.fault, chaos: e.chaos, status: e.status }));
}
