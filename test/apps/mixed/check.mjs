// The app's own check, run by run.mjs against oz-mock (OZ_BASE_URL, OZ_API_KEY): prints one JSON line of what held.
import { once } from 'node:events';
import * as esm from 'oz-sdk';
import { createApp } from './app.mjs';
import tools from './tools.cjs';

const fromCommonJS = await tools.execute('no-such-tool').catch((error) => error);
const fromESM = await new esm.Oz({ maxRetries: 0 }).tools.execute('no-such-tool', { text: 'x' }).catch((error) => error);

const server = createApp().listen(0, '127.0.0.1');
await once(server, 'listening');
const answer = async (path) => {
  const response = await fetch(`http://127.0.0.1:${server.address().port}${path}`);
  return `${response.status} ${await response.text()}`;
};

console.log(
  JSON.stringify({
    twoBuilds: tools.OzError !== esm.OzError,
    commonJSError: `${fromCommonJS.name} ${fromCommonJS.code} ${fromCommonJS.status}`,
    commonJSErrorInESM: tools.classesOf(fromCommonJS, esm),
    esmErrorInCommonJS: tools.classesOf(fromESM),
    plainErrorInESM: tools.classesOf(new Error('x'), esm),
    app: { echo: await answer('/tools/echo'), missing: await answer('/tools/no-such-tool') },
  }),
);
server.close();
