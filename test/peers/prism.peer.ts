/**
 * Stoplight Prism (proxy mode, `--errors`) in front of `oz-mock`: the tour calls every operation of openapi.json on
 * every wire through Prism, which validates each request and answer against openapi.json and turns any violation
 * into a 500 with an `sl-violations` header. Prism reads the document from oz-mock with `content=all`, the form that
 * lists the markdown, text and stream answers in `content` (the default form keeps them beside it, for generators). Prism cannot read YAML (neither bodies nor answers): those requests go
 * straight to `oz-mock` and their answers are checked with ajv against the same schemas (test/support/ozServer.ts).
 * Prism reads a stream as one string: the events of every stream are checked with ajv as well.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/generated/operations.js';
import { checkResponse } from '../support/ozServer.js';
import { runTour, type TourKeys, type TourRequest } from './operationTour.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PRISM = fileURLToPath(new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));

const children: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Spawns `node args`, resolving with the first stdout line that `ready` accepts. */
function start(args: string[], ready: (line: string) => boolean, what: string): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start in 60 s:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find(ready);
      if (line !== undefined) {
        clearTimeout(timer);
        resolve(line);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} left with code ${code}:\n${out}`));
    });
  });
}

let ozUrl = '';
let prismUrl = '';
let keys: TourKeys;

beforeAll(async () => {
  const line = await start(['--import', 'tsx', 'src/testing/cli.ts', '--port', '0', '--json'], (l) => l.startsWith('{'), 'oz-mock');
  const info = JSON.parse(line) as { url: string; apiKey: string; proxyKey: string };
  ozUrl = info.url;
  keys = { apiKey: info.apiKey, proxyKey: info.proxyKey };
  const port = await freePort();
  // The document as oz-mock serves it for validators: every form of every answer (markdown, text, streams) in content.
  await start(
    [PRISM, 'proxy', `${ozUrl}/v1/openapi.json?content=all`, ozUrl, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    (l) => l.includes('Prism is listening'),
    'Prism',
  );
  prismUrl = `http://127.0.0.1:${port}`;
}, 90_000);

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

interface Answer {
  readonly request: TourRequest;
  readonly via: 'prism' | 'direct';
  readonly status: number;
  readonly problems: readonly string[];
}

/** Sends one tour request: through Prism, or (YAML) straight to oz-mock and checked with ajv. */
async function send(request: TourRequest, answers: Answer[]) {
  const viaPrism = request.wire !== 'yaml' && !request.yamlBody;
  const url = `${viaPrism ? prismUrl : ozUrl}${request.path}`;
  const response = await fetch(url, { method: request.method, headers: request.headers, body: request.body });
  const problems: string[] = [];
  if (viaPrism) {
    const violations = response.headers.get('sl-violations');
    if (violations) problems.push(`Prism: ${violations}`);
    // An answer Prism made itself (a rejected request) carries no x-request-id of the server.
    if (!response.headers.get('x-request-id')) problems.push(`answered by Prism, not by oz-mock: ${response.status}`);
  }
  // Prism checks a stream only as a string: the events are checked with ajv, and the YAML Prism never saw too.
  if (!viaPrism || request.wire === 'sse') {
    const checked = await checkResponse({
      operationId: request.operationId,
      route: 'operation',
      response: response.clone(),
      request: { signal: new AbortController().signal },
      journal: { fault: null },
    });
    problems.push(...new Set(checked.map((p) => `ajv: ${p}`)));
  }
  const text = await response.text();
  answers.push({ request, via: viaPrism ? 'prism' : 'direct', status: response.status, problems });
  return { status: response.status, headers: response.headers, text };
}

describe('Prism in proxy mode with --errors in front of oz-mock', () => {
  const everyOperation = Object.keys(OPERATIONS).sort();

  for (const wire of ['json', 'yaml', 'markdown', 'text'] as const) {
    it(`finds no violation in a tour of every operation on the ${wire} wire`, async () => {
      const answers: Answer[] = [];
      const called = await runTour(wire, keys, (r) => send(r, answers));
      expect([...called].sort()).toEqual(everyOperation);
      const bad = answers.filter((a) => a.problems.length > 0).map((a) => `${a.request.method} ${a.request.path} -> ${a.status}: ${a.problems.join('; ')}`);
      expect(bad).toEqual([]);
      // The tour really went through Prism, on the wire asked, and met errors as well as successes.
      const prism = answers.filter((a) => a.via === 'prism');
      expect(prism.length).toBeGreaterThan(wire === 'yaml' ? 10 : 60);
      expect(answers.some((a) => a.status >= 400)).toBe(true);
      expect(answers.some((a) => a.request.wire === 'sse')).toBe(true);
      if (wire !== 'json') expect(answers.filter((a) => a.request.wire === wire).length).toBeGreaterThan(30);
    }, 120_000);
  }

  it('answers a request that breaks openapi.json with its own violation (the check can fail)', async () => {
    const response = await fetch(`${prismUrl}/v1/tools?limit=500`, { headers: { authorization: `Bearer ${keys.apiKey}` } });
    expect(response.status).toBe(422);
    expect(response.headers.get('x-request-id')).toBeNull();
    await response.body?.cancel();
  });
});
