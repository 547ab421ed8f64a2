/**
 * Streaming an agent's answer token by token: text deltas, typed events, the final result, forwarding a stream
 * to a browser, and what to do when a stream is cut (the run goes on: wait for it).
 *
 *   node --import tsx examples/agent-streaming.ts
 *
 * Uses the embedded Oz server unless OZ_BASE_URL is set.
 */
import { Oz, OzAPIError, OzStreamInterruptedError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
const oz = server ? new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch }) : new Oz();

// #region deltas
const stream = await oz.agents.execute({ agent: 'writer', user_request: 'a haiku about tea', stream: true });
for await (const text of stream.textDeltas()) process.stdout.write(text);
const result = await stream.finalResult(); // the closing `result` event: { ok, content, execution_id, request_id }
console.log(`\n${result.ok} ${result.execution_id}`);
// #endregion

// #region events
// Or read the typed events themselves: `token` (data.delta), then one `result` (or a typed error is thrown).
const events = await oz.agents.execute({ agent: 'writer', user_request: 'three words', stream: true });
let tokens = 0;
for await (const event of events) {
  if (event.event === 'token') tokens++;
  else if (event.event === 'result') console.log(`${tokens} tokens, then: ${event.data.content}`);
}
// #endregion

// #region forward
// Forward a stream to a browser as server-sent events, from any Fetch-API handler. A refusal (an agent that needs
// approval: `approval_required`) comes as the stream's first event, after a 200: read that event
// before answering, so the browser gets the error's own status instead of a 200 with the error inside.
async function handleDraftRequest(request: Request): Promise<Response> {
  const { agent, topic } = (await request.json()) as { agent: string; topic: string };
  const upstream = await oz.agents.execute({ agent, user_request: topic, stream: true });
  const [first, forwarded] = upstream.tee(); // two readers of one connection
  try {
    await first[Symbol.asyncIterator]().next(); // throws the typed error of an `error` event
  } catch (error) {
    await forwarded.close();
    if (!(error instanceof OzAPIError)) throw error;
    return Response.json({ code: error.code, message: error.message }, { status: error.status });
  } finally {
    await first.close(); // the other reader goes on alone
  }
  return new Response(forwarded.toReadableStream(), { headers: { 'content-type': 'text/event-stream' } });
}
// #endregion
const draftRequest = (agent: string) => new Request('http://localhost/draft', { method: 'POST', body: JSON.stringify({ agent, topic: 'tea' }) });
const forwarded = await handleDraftRequest(draftRequest('writer'));
const sse = await forwarded.text();
console.log(`forwarded ${sse.split('event: token').length - 1} token events and the ${sse.includes('event: result') ? 'result' : 'missing result'} event`);
const refused = await handleDraftRequest(draftRequest('approver'));
console.log(`refused: ${refused.status} ${((await refused.json()) as { code: string }).code}`); // refused: 409 approval_required

// The embedded server can cut a stream on purpose: here after 3 events. (A real service cuts only by accident.)
server?.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 3 });

// #region interrupted
let received = '';
try {
  const story = await oz.agents.execute({ agent: 'writer', user_request: 'a story about a lighthouse keeper', stream: true });
  for await (const text of story.textDeltas()) received += text;
} catch (error) {
  // A cut stream cannot be retried from where it stopped, but the run goes on on the server: wait for its end.
  if (!(error instanceof OzStreamInterruptedError) || !error.executionId) throw error;
  console.log(`cut after ${JSON.stringify(error.receivedText)}; waiting for ${error.executionId}`);
  received = (await oz.executions.wait(error.executionId)).content;
}
console.log(received); // Here is a draft for: a story about a lighthouse keeper
// #endregion

await server?.close();
