// Cloudflare Workers entry of the ecosystem scenario (bundled with esbuild, run by workerd): the client's checks
// over HTTP with the Worker's own fetch against a server its host runs in Node (`?base=&key=&control=`). It
// imports the client only (worker-embedded.mjs runs the embedded server inside a Worker).
import * as sdk from 'oz-sdk';
import { runRemote } from './scenario.mjs';

export default {
  async fetch(request) {
    try {
      const params = new URL(request.url).searchParams;
      const http = await runRemote({ sdk, baseURL: params.get('base'), apiKey: params.get('key'), controlURL: params.get('control') });
      return Response.json({ module: 'esm', http });
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
