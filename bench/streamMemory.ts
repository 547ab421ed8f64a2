/**
 * Memory of a long stream: 100 MB of `token` deltas from a local 127.0.0.1 server, read through the SDK's
 * `Stream` (`client.agents.execute({ stream: true })`, `textDeltas()`), must keep the heap flat: what the stream
 * holds does not grow with what went through it.
 *
 *   node --import tsx bench/streamMemory.ts [--mb 100] [--retain]
 *
 * Prints the heap after a full GC before the stream and at every tenth of it, the growth between the first and
 * the last of those, and the peak heap sampled (without forcing GC) every 20 ms. By default the call passes
 * `retainStreamText: false`; with `--retain` the stream keeps the text (the default of the SDK), and the heap
 * grows by about the text's size, as it must. The server's closing `result` event carries a short `content`
 * (the real service repeats the whole text there).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Oz } from '../src/index.js';

const args = process.argv.slice(2);
const mbAt = args.indexOf('--mb');
const megabytes = mbAt >= 0 ? Number(args[mbAt + 1]) || 100 : 100;
const retain = args.includes('--retain');
const TOTAL = megabytes * 1024 * 1024;
// Mostly ASCII, with one non-Latin-1 character so decoding and the joined text are not all one-byte.
const DELTA = `${'x'.repeat(96)} \u{1F642} `;
const EVENT = `event: token\ndata: ${JSON.stringify({ delta: DELTA })}\n\n`;
const DELTA_BYTES = Buffer.byteLength(DELTA);
const EVENTS = Math.ceil(TOTAL / DELTA_BYTES);
const BATCH = 512;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

async function writeEvents(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'x-execution-id': 'exe_bench', 'x-request-id': 'req_bench' });
  const batch = EVENT.repeat(BATCH);
  for (let sent = 0; sent < EVENTS; sent += BATCH) {
    const count = Math.min(BATCH, EVENTS - sent);
    const ok = res.write(count === BATCH ? batch : EVENT.repeat(count));
    if (!ok) await new Promise((resolve) => res.once('drain', resolve));
    if (res.destroyed) return;
  }
  res.end(`event: result\ndata: ${JSON.stringify({ ok: true, content: '(100 MB of deltas)', execution_id: 'exe_bench', request_id: 'req_bench' })}\n\n`);
}

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => void writeEvents(res));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const oz = new Oz({ baseURL, apiKey: 'ozk_BenchKey0123456789abcdefghijklmn', logLevel: 'off' });

const before = heapAfterGc();
let peak = process.memoryUsage().heapUsed;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
const checkpoints: number[] = [];
let received = 0;
let nextCheckpoint = TOTAL / 10;
const started = performance.now();

const stream = await oz.agents.execute({ agent: 'writer', user_request: 'bench', stream: true }, { retainStreamText: !retain ? false : undefined });
for await (const delta of stream.textDeltas()) {
  received += Buffer.byteLength(delta);
  if (received >= nextCheckpoint) {
    checkpoints.push(heapAfterGc());
    nextCheckpoint += TOTAL / 10;
  }
}
const result = await stream.finalResult();
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().heapUsed);
const after = heapAfterGc();
server.close();

const first = checkpoints[0] ?? before;
const last = checkpoints.at(-1) ?? after;
console.log(`Stream memory: ${MB(received)} of token deltas (${EVENTS.toLocaleString('en')} events) through Stream.textDeltas(), retainStreamText: ${retain}`);
console.log(`  time:                    ${seconds.toFixed(1)} s (${(received / 1024 / 1024 / seconds).toFixed(0)} MB/s), result ok: ${result.ok}`);
console.log(`  heap after GC, before:   ${MB(before)}`);
console.log(`  heap after GC, per 10 %: ${checkpoints.map(MB).join(', ')}`);
console.log(`  growth 10 % -> 100 %:    ${MB(last - first)}`);
console.log(`  peak heap (sampled):     ${MB(peak)} (${MB(peak - before)} above the start)`);
console.log(`  heap after GC, after:    ${MB(after)}`);
if (retain) {
  const units = (stream.receivedText ?? '').length;
  console.log(`  kept text:               ${(units / 1e6).toFixed(1)} M UTF-16 units (2 bytes each: the text is not all Latin-1)`);
}
