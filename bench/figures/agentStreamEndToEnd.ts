/**
 * An agent stream end to end over 127.0.0.1: the embedded server in its own process with no pause between tokens
 * (as `oz-mock --token-ms 0`) streaming a writer run of about 2,000 tokens, against a bare `node:http` SSE server
 * (its own process too) answering THE SAME EVENT BYTES, captured once from the embedded server, with one
 * `res.write` per event in a loop. Both are read by the same reader: a `fetch` and the SDK's `Stream` over its
 * `Response`, every event iterated; so only the server differs. Alternating rounds (`compareLatency`), the result is
 * the median of per-round token-rate ratios (the bare server's time over ours: 1 is as fast as the bare server).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareLatency, medianRatio, quartiles, roundRatios } from '../latencyComparison.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatSpread, judged, type FigureRow } from '../figureRow.js';
import { startServerProcess } from '../serverProcess.js';

const TARGET = 0.8;
/** The writer answers "Here is a draft for: " and the request, a token per word: 5 + 2,000 tokens. */
const WORDS = 2000;

export async function agentStreamRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { Stream } = ctx.modules.sdk;
  const request = Array.from({ length: ctx.mode.smoke ? 50 : WORDS }, (_, i) => `w${i % 1000}`).join(' ');
  const body = JSON.stringify({ agent: 'writer', user_request: request, stream: true });
  const oz = await startServerProcess('oz-stream', ctx.pkg.testingSpecifier);
  const dir = mkdtempSync(join(tmpdir(), 'oz-bench-sse-'));
  try {
    const headers = { authorization: `Bearer ${oz.apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' };
    const open = async (url: string): Promise<Response> => {
      const response = await fetch(`${url}/v1/execute`, { method: 'POST', headers, body });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return response;
    };
    // The bytes the bare server answers: one stream of the embedded server, as it sent it.
    const captured = await (await open(oz.url)).text();
    const events = captured.split('\n\n').filter(Boolean).length;
    const tokens = events - 1;
    const file = join(dir, 'stream.txt');
    writeFileSync(file, captured);
    const bare = await startServerProcess('sse', file);
    try {
      const read = async (url: string): Promise<void> => {
        let count = 0;
        for await (const _ of new Stream<unknown>(await open(url), { mode: 'events' })) count++;
        if (count !== events) throw new Error(`${url}: ${count} events, expected ${events}`);
      };
      ctx.log(`agent stream: ${tokens} tokens end to end (oz-mock --token-ms 0 vs bare node:http SSE)`);
      const comparison = await compareLatency(ctx.mode, [
        { name: 'oz', fn: () => read(oz.url) },
        { name: 'bare', fn: () => read(bare.url) },
      ]);
      const ratio = medianRatio(comparison, 'bare', 'oz');
      const rate = (name: string) => `${Math.round(tokens / (comparison.medianMs.get(name)! / 1000)).toLocaleString('en')} tokens/s`;
      return [
        {
          name: FIGURE_NAMES.agentStreamEndToEnd,
          ours: `${formatMs(comparison.medianMs.get('oz')!)} (${rate('oz')})`,
          anchor: `bare node:http SSE ${formatMs(comparison.medianMs.get('bare')!)} (${rate('bare')})`,
          result: formatSpread(ratio, quartiles(roundRatios(comparison, 'bare', 'oz'))),
          target: `>= ${TARGET.toFixed(2)}`,
          met: judged(ctx.mode.smoke, ratio >= TARGET),
          how: `POST /v1/execute writer stream of ${tokens.toLocaleString('en')} tokens + result from the embedded server in its own process (timing.tokenMs 0, as oz-mock --token-ms 0) vs a bare node:http server in its own process writing the same captured event bytes (one res.write per event in a loop); both read over 127.0.0.1 by fetch + the SDK's Stream (every event iterated); ${ctx.mode.rounds} alternating rounds, median of per-round token-rate ratios (bare time / ours); wall time`,
        },
      ];
    } finally {
      await bare.stop();
    }
  } finally {
    await oz.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
