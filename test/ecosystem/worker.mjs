// Cloudflare Workers entry of the ecosystem scenario (bundled with esbuild, run by workerd): the checks run in
// process on each request. A Worker cannot open a listening socket, so there is no HTTP leg here.
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
