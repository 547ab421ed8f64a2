import { controlPlane, type ControlScope } from './control/controlPlaneStep.js';
import { handler } from './handlers/index.js';
import { dashboard, type DashboardWorld } from './mounts/dashboardStep.js';
import { ServerExchange } from './pipeline/exchange.js';
import { composeServerSteps, type RequestHandler, type ServerStep } from './pipeline/serverStep.js';
import { authentication } from './pipeline/steps/authenticate.js';
import { body } from './pipeline/steps/body.js';
import { bodyBytes } from './pipeline/steps/bodyBytes.js';
import { coverage } from './pipeline/steps/coverage.js';
import { dribble } from './pipeline/steps/dribble.js';
import { events } from './pipeline/steps/events.js';
import { fault } from './pipeline/steps/fault.js';
import { hostCheck } from './pipeline/steps/hostCheck.js';
import { journal } from './pipeline/steps/journal.js';
import { loseAnswer } from './pipeline/steps/loseAnswer.js';
import { negotiation } from './pipeline/steps/negotiate.js';
import { rateLimit } from './pipeline/steps/rateLimit.js';
import { render } from './pipeline/steps/render.js';
import { replay } from './pipeline/steps/replay.js';
import { requestId } from './pipeline/steps/requestId.js';
import { route } from './pipeline/steps/route.js';
import { tier } from './pipeline/steps/tier.js';
import { traceId } from './pipeline/steps/traceId.js';
import { validation } from './pipeline/steps/validate.js';
import { stub } from './pipeline/stubs/stubStep.js';
import { sessions, type SessionScope } from './sessions/sessionStep.js';

/** What the chain holds of the server a request came to: its control plane and its sessions. */
export interface ServerScope extends ControlScope, SessionScope {}

/** One request in the server's chain: its server, the world it goes to, and what the steps found. */
export type ServerRequest = ServerExchange<ServerScope, DashboardWorld>;

/**
 * Every step a request goes through, in order, from what a mount read to the answer it hands back: each does its
 * part around the steps after it (src/testing/pipeline/README.md lists them, and test/testing/serverChain.test.ts
 * holds the list and the page to each other). The first steps see every request of a port; the journal and the
 * steps after it see the API's and MCP's.
 */
export const SERVER_STEPS: readonly ServerStep<ServerRequest>[] = [
  requestId, // first: the request has its id before anything answers, and every answer leaves with it
  hostCheck, // a foreign Host on a loopback listener is refused before anything reads the request
  controlPlane, // `/_oz/` is the control plane's, for every world: before the sessions (an admin token is no world's)
  sessions, // the world the key belongs to: every step after works on ctx.world
  dashboard, // the world's dashboard pages: not journaled, so before the journal
  loseAnswer, // a `lose` (or unstreamed `cut`) fault drops the answer once it was journaled and shown to the listeners
  events, // the listeners see the finished entry and the answer as it leaves (dribbled, if it is)
  dribble, // a `dribble` fault slows any answer, an error's too: outside the render step
  coverage, // the operation's answer counted in openapi.json's coverage, where its entry is final (before the listeners see it)
  journal, // the entry, opened before the route (a 404 is journaled too), finished with the answer
  route, // the operation from the generated route table, its context made; preflight, 405 and 404 answered here
  render, // an error thrown by any step after it is answered as the envelope on the request's wire
  authentication, // the key: no byte of a body is read, and no fault's pattern is run, for a request without a good one
  bodyBytes, // the body's bytes from what the mount handed over (413 past the bound), before a fault may match them
  fault, // the request's fault: drop, delay, error, cut armed (after the key and the bytes it may match on)
  rateLimit, // the key's window, or 429 (a request an error fault answered is not counted)
  tier, // the account's tier opens the plane
  traceId, // a write's x-trace-id, checked before the body is parsed
  body, // JSON or YAML parsed (MCP: its message)
  validation, // parameters and body against openapi.json
  negotiation, // the answer's wire: after the body (its `format`), before anything answers a payload
  replay, // a write with a trace id served once: a repeat answers the kept answer, in the place of the stubs and handler
  stub, // a stub answers in the handler's place, after every check a handler's answer goes through
  handler, // the operation's handler
];

/** The chain, composed once: every server and every world runs this one function. */
const runChain = composeServerSteps(SERVER_STEPS);

/** The handler every mount of a world uses: the chain, for that server and that world. */
export function serverHandler(scope: ServerScope, world: DashboardWorld): RequestHandler {
  return (request, conn) => runChain(new ServerExchange(scope, world, request, conn));
}
