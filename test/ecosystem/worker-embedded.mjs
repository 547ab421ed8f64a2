// Cloudflare Workers entry of the embedded server (bundled with esbuild, run by workerd beside worker.mjs): the
// scenario's checks in process, `createOzServer()` inside the Worker and the client calling it through
// `server.fetch` (a Worker cannot listen on a socket, so there is no HTTP leg). The server's validators are
// generated ahead of time, so nothing needs `new Function`, which Workers forbid.
import * as sdk from 'oz-sdk';
import * as testing from 'oz-sdk/testing';
import { runScenario } from './scenario.mjs';

export default {
  async fetch() {
    try {
      const report = await runScenario({ sdk, testing, listen: false });
      return Response.json({ module: 'esm', ...report });
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
