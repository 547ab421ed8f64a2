// Cloudflare Workers entry of the ecosystem scenario (bundled with esbuild, run by workerd): the checks run in
// process, then over HTTP with the Worker's own fetch against a server its host runs (`?base=&key=&control=`):
// a Worker cannot open a listening socket itself.
import * as sdk from 'oz-sdk';
import * as testing from 'oz-sdk/testing';
import { runRemote, runScenario } from './scenario.mjs';

export default {
  async fetch(request) {
    try {
      const params = new URL(request.url).searchParams;
      const report = await runScenario({ sdk, testing, listen: false });
      if (params.has('base')) {
        report.http = await runRemote({ sdk, baseURL: params.get('base'), apiKey: params.get('key'), controlURL: params.get('control') });
      }
      return Response.json({ module: 'esm', ...report });
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
