// Cloudflare Workers probe of the embedded server (bundled with esbuild, run by workerd beside worker.mjs):
// `oz-sdk/testing` loads, and `createOzServer()` either runs or refuses with its typed error. The host reads
// the answer: `{ created: true }`, or `{ created: false, name, message }`.
import * as testing from 'oz-sdk/testing';

export default {
  async fetch() {
    try {
      const server = testing.createOzServer();
      await server.close();
      return Response.json({ created: true });
    } catch (error) {
      const typed = error instanceof testing.OzUnsupportedRuntimeError;
      return Response.json({ created: false, typed, name: error?.name, message: error?.message ?? String(error) });
    }
  },
};
