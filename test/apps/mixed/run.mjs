// The mixed app: the packed tarball (env OZ_TARBALL) installed in a copy of this folder, then check.mjs run against a
// real oz-mock. An error thrown by the client of the CommonJS module (tools.cjs: `require('oz-sdk')`) must be an
// instance of the classes the ES modules import (OzError, OzAPIError, Http404Error, ToolNotFoundError; not
// RateLimitedError or OzUsageError), an error of an ES module's client an instance of the CommonJS build's, a plain
// Error of none; and the app's error filter (app.mjs) must answer the tool's 404, not a 500.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert, installApp, mustRun, removeFolder, runChecks, startOzMock, tarballFromEnv } from '../appKit.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const tarball = tarballFromEnv('mixed');
const classes = (yes) => ({ OzError: yes, OzAPIError: yes, Http404Error: yes, ToolNotFoundError: yes, RateLimitedError: false, OzUsageError: false });
const EXPECTED = {
  twoBuilds: true,
  commonJSError: 'ToolNotFoundError tool_not_found 404',
  commonJSErrorInESM: classes(true),
  esmErrorInCommonJS: classes(true),
  plainErrorInESM: classes(false),
  app: { echo: '200 {"content":"mixed"}', missing: '404 {"code":"tool_not_found"}' },
};

let dir;
let ozMock;

async function check() {
  const env = { ...process.env, OZ_BASE_URL: ozMock.url, OZ_API_KEY: ozMock.apiKey };
  const output = await mustRun(process.execPath, [join(dir, 'check.mjs')], { cwd: dir, env, timeoutMs: 60_000 });
  const report = output.trim().split('\n').pop();
  assert(report === JSON.stringify(EXPECTED), `check.mjs printed:\n${output.slice(-3000)}\nexpected:\n${JSON.stringify(EXPECTED)}`);
}

await runChecks(
  'mixed',
  [
    [
      ['install (npm ci, then the tarball)', async () => (dir = await installApp(here, tarball))],
      ['oz-mock started', async () => (ozMock = await startOzMock(dir))],
    ],
    [['errors cross the ESM and CommonJS builds; the error filter answers 404', check]],
  ],
  async () => {
    await ozMock?.stop();
    removeFolder(dir);
  },
);
