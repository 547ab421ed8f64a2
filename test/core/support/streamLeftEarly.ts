// A program that leaves a stream early (`abort`: aborts its signal between two reads; `break`: breaks out of its
// loop), prints what is still alive, and ends: run by streamRelease.test.ts in a process of its own, which must
// exit by itself at once (no timer, listener or socket of the stream left).
import { Oz, OzAbortError } from '../../../src/index.js';

const [url, apiKey, how] = process.argv.slice(2) as [string, string, 'abort' | 'break'];
const oz = new Oz({ baseURL: url, apiKey, logLevel: 'off' });
const controller = new AbortController();
const stream = await oz.agents.execute({ agent: 'writer', user_request: 'a long answer', stream: true }, { signal: controller.signal });
// One turn of the event loop for the closing to settle, then what keeps the process alive.
const settled = () => new Promise((resolve) => setImmediate(resolve));
let resources: string[];
let aborted: unknown;
if (how === 'abort') {
  const events = stream[Symbol.asyncIterator]();
  await events.next();
  controller.abort();
  await settled();
  resources = process.getActiveResourcesInfo();
  // A caller may never read again; one that does gets the abort.
  aborted = await events.next().catch((error: unknown) => error);
} else {
  for await (const _event of stream) break;
  await settled();
  resources = process.getActiveResourcesInfo();
}
const executionId = aborted instanceof OzAbortError ? aborted.executionId : undefined;
console.log(JSON.stringify({ resources, aborted: aborted instanceof OzAbortError, executionId, streamExecutionId: stream.executionId }));
