// The Next.js app: the packed tarball (env OZ_TARBALL) installed beside this folder's locked Next.js 16, built with
// webpack (`next build --webpack`) and with Turbopack (`next build`), each build then started (`next start`) and its
// two routes fetched: app/node (Node runtime) and app/edge (`runtime = 'edge'`), both answering through the client
// (lib/answer.js) against a real oz-mock. Each build must print no "Module not found" (nor Next's warning of a Node
// module in the Edge Runtime), and the Edge route's output (its files in .next/server/middleware-manifest.json and
// their source maps) must load no Node built-in module beyond what Next's own Edge code loads (the baseline route
// app/edge-baseline, which imports nothing of oz-sdk) and hold no stub of an unsupported Edge import.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert, builtinsIn, freePort, installApp, mustRun, removeFolder, runChecks, startOzMock, tarballFromEnv } from '../appKit.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const tarball = tarballFromEnv('next');
// No OZ_BASE_URL at build time: the routes make their client per request, as a Next.js app must.
const buildEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
delete buildEnv.OZ_BASE_URL;
delete buildEnv.OZ_API_KEY;
// What a build may not print: webpack's failed resolution, Next's warning of a Node module in the Edge Runtime.
const BUILD_PROBLEMS = [/Module not found/i, /Can't resolve/, /not supported in the Edge Runtime/i, /node-module-in-edge-runtime/];

let dir;
let ozMock;
const next = (args, env = buildEnv) => ({ cmd: process.execPath, args: [join(dir, 'node_modules/next/dist/bin/next'), ...args], env });

async function build(bundler) {
  rmSync(join(dir, '.next'), { recursive: true, force: true });
  const { cmd, args, env } = next(bundler === 'webpack' ? ['build', '--webpack'] : ['build']);
  const output = await mustRun(cmd, args, { cwd: dir, env });
  const problems = BUILD_PROBLEMS.filter((pattern) => pattern.test(output));
  assert(problems.length === 0, `next build (${bundler}) printed ${problems.join(', ')}:\n${output.slice(-4000)}`);
}

/** The files of an Edge function (from the middleware manifest), each with its source map when there is one. */
function edgeFiles(page) {
  const manifest = JSON.parse(readFileSync(join(dir, '.next/server/middleware-manifest.json'), 'utf8'));
  const fn = manifest.functions[page];
  assert(fn, `no Edge function ${page} in middleware-manifest.json: ${Object.keys(manifest.functions).join(', ')}`);
  return fn.files.map((file) => join(dir, '.next', file)).flatMap((file) => [file, `${file}.map`].filter(existsSync));
}

/** Source maps' sources (sectioned maps included), with their contents. */
function mapSources(file) {
  const map = JSON.parse(readFileSync(file, 'utf8'));
  return (map.sections?.map((section) => section.map) ?? [map]).flatMap((m) =>
    m.sources.map((source, i) => ({ source, content: m.sourcesContent?.[i] ?? '' })),
  );
}

/** What an Edge function's output loads: built-ins named by its code and its maps' sources, oz-sdk's sources' own. */
function edgeReferences(page) {
  const code = new Set();
  const ozSources = new Set();
  let stubs = 0;
  for (const file of edgeFiles(page)) {
    const text = readFileSync(file, 'utf8');
    stubs += (text.match(/unsupported edge import|__import_unsupported\(\s*\\?["']/gi) ?? []).length;
    if (!file.endsWith('.map')) for (const name of builtinsIn(text)) code.add(name);
    else {
      const sources = mapSources(file);
      for (const name of builtinsIn(sources.map((s) => s.source).join('\n'))) code.add(name);
      for (const { source, content } of sources) if (source.includes('/oz-sdk/')) for (const name of builtinsIn(content)) ozSources.add(`${name} (${source})`);
    }
  }
  return { code, ozSources, stubs };
}

function checkEdgeOutput() {
  const baseline = edgeReferences('/edge-baseline/route');
  const oz = edgeReferences('/edge/route');
  const extra = [...oz.code].filter((name) => !baseline.code.has(name));
  assert(
    extra.length === 0,
    `the Edge route loads Node built-ins Next's own Edge code does not (${[...baseline.code].join(', ') || 'none'}): ${extra.join(', ')}`,
  );
  assert(oz.ozSources.size === 0, `oz-sdk's sources in the Edge output import Node built-ins: ${[...oz.ozSources].join('; ')}`);
  assert(oz.stubs === 0, `the Edge output holds ${oz.stubs} stub(s) of an unsupported Edge import`);
}

/** `next start` on a free port with the client's env; answers the two routes' JSON, then stops the server. */
async function startAndFetch() {
  const port = await freePort();
  const { cmd, args, env } = next(['start', '--port', String(port), '--hostname', '127.0.0.1'], {
    ...buildEnv,
    OZ_BASE_URL: ozMock.url,
    OZ_API_KEY: ozMock.apiKey,
  });
  // Its own process group: the server and anything it spawns stop together.
  const server = spawn(cmd, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let log = '';
  server.stdout.on('data', (chunk) => (log += chunk));
  server.stderr.on('data', (chunk) => (log += chunk));
  const exited = new Promise((resolve) => server.on('close', resolve));
  try {
    await waitForServer(`http://127.0.0.1:${port}/edge-baseline`, server, () => log);
    for (const runtime of ['node', 'edge']) checkAnswer(runtime, await fetchJson(`http://127.0.0.1:${port}/${runtime}`, () => log));
  } finally {
    if (server.exitCode === null && server.signalCode === null) process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
}

/** Polls `url` until the server answers; fails when it exits or after 60 s. */
async function waitForServer(url, server, log) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && server.exitCode === null) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`next start did not answer ${url} (${server.exitCode === null ? 'within 60 s' : `it exited ${server.exitCode}`}):\n${log()}`);
}

async function fetchJson(url, log) {
  const response = await fetch(url);
  const text = await response.text();
  assert(response.ok, `${url} answered ${response.status}: ${text.slice(0, 2000)}\n${log().slice(-4000)}`);
  return JSON.parse(text);
}

function checkAnswer(runtime, body) {
  const expected = {
    runtime,
    echo: `oz-sdk on ${runtime}`,
    funcs: `oz-sdk/funcs on ${runtime}`,
    mcpClient: true,
    error: { name: 'ToolNotFoundError', code: 'tool_not_found', status: 404, typed: true, rateLimited: false },
    tableClasses: { own: true, sibling: false },
  };
  const { mcpTools, ...rest } = body;
  assert(
    JSON.stringify(rest) === JSON.stringify(expected) && mcpTools > 0,
    `/${runtime} answered ${JSON.stringify(body)}, expected ${JSON.stringify(expected)} and some MCP tools`,
  );
}

await runChecks(
  'next',
  [
    [
      ['install (npm ci, then the tarball)', async () => (dir = await installApp(here, tarball))],
      ['oz-mock started', async () => (ozMock = await startOzMock(dir))],
    ],
    [
      ['next build --webpack', () => build('webpack')],
      ['webpack: Edge output without Node built-ins or stubs', checkEdgeOutput],
      ['webpack: next start, Node and Edge routes answer', startAndFetch],
    ],
    [
      ['next build (Turbopack)', () => build('turbopack')],
      ['Turbopack: Edge output without Node built-ins or stubs', checkEdgeOutput],
      ['Turbopack: next start, Node and Edge routes answer', startAndFetch],
    ],
  ],
  async () => {
    await ozMock?.stop();
    removeFolder(dir);
  },
);
