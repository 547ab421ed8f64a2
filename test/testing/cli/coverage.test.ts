/**
 * The four readings of one run's coverage agree: `server.coverage()`, `GET /_oz/coverage` (JSON, and the page and
 * the table by `Accept`), the console's Coverage view, and `oz-mock --coverage FILE` written at exit (`.json`,
 * `.html`, `.txt`) by the real bin stopped with SIGTERM or SIGINT; `--min-coverage` fails the exit below it,
 * naming what was missed; a bad flag is a usage error naming it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOzServer, type OzCoverageReport, type OzServer } from '../../../src/testing/index.js';
import { coverageHtml, coverageText } from '../../../src/testing/harness/coverageFormats.js';
import { coverageModel } from '../../../src/testing/control/console/coverageModel.js';
import { spawnOzMock, startOzMock, type SpawnedOzMock } from '../control/spawnOzMock.js';
import { RUN_STATUSES, sendRun } from '../harness/coverageRun.js';

const TOKEN = 'ozadm_CliCovCliCovCliCovCliCovCliCovCl';
const API_KEY = 'ozk_CliCovCliCovCliCovCliCovCliCovCl';
const ADMIN = { authorization: `Bearer ${TOKEN}` };
const dir = mkdtempSync(join(tmpdir(), 'oz-coverage-'));
let server: OzServer;
let url: string;
/** The in-process server's report after the run. */
let expected: OzCoverageReport;

beforeAll(async () => {
  server = createOzServer({ adminToken: TOKEN, apiKey: API_KEY });
  url = (await server.listen()).url;
  expect(await sendRun({ url, apiKey: API_KEY, adminToken: TOKEN, fetch })).toEqual(RUN_STATUSES);
  expected = server.coverage();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function coverageOver(base: string, accept?: string): Promise<Response> {
  const res = await fetch(`${base}/_oz/coverage`, { headers: { ...ADMIN, ...(accept ? { accept } : {}) } });
  expect(res.status).toBe(200);
  return res;
}

describe('one run, four readings', () => {
  it('GET /_oz/coverage answers server.coverage(), and its page and table by Accept', async () => {
    expect(await (await coverageOver(url)).json()).toEqual(expected);
    const page = await coverageOver(url, 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(await page.text()).toBe(coverageHtml(expected));
    expect(await (await coverageOver(url, 'text/plain')).text()).toBe(coverageText(expected));
  });

  it("the console's view shows the same report", async () => {
    const model = coverageModel(await (await coverageOver(url)).json());
    expect(model).toEqual(coverageModel(expected));
    expect(model.rows).toContainEqual({ operationId: 'executeTool', response: '424 connection_required', count: 1, by: 'handler 1', state: 'covered' });
    expect(model.rows).toContainEqual({ operationId: 'getTool', response: '404 tool_not_found', count: 2, by: 'handler 1, stub 1', state: 'covered' });
    expect(model.rows).toContainEqual({ operationId: 'getAgent', response: '418', count: 1, by: 'stub 1', state: 'undeclared' });
    expect(model.rows).toContainEqual({ operationId: 'executeTool', response: '424 credential_required', count: 0, by: '–', state: 'missed' });
    expect(model.summary).toBe(
      `7 of ${expected.summary.declared} declared responses of the 7 operations called were covered (${(Math.round(expected.summary.share * 1000) / 10).toFixed(1)} %).`,
    );
    expect(model.notCalled).toContain('createCompanyItem');
  });

  it.each([
    ['json', 'SIGTERM'],
    ['html', 'SIGINT'],
    ['txt', 'SIGTERM'],
  ] as const)('oz-mock --coverage FILE.%s writes it at exit (%s)', async (format, signal) => {
    const file = join(dir, `coverage.${format}`);
    const { mock, line } = await startOzMock(['--admin-token', TOKEN, '--api-key', API_KEY, '--coverage', file]);
    try {
      expect(await sendRun({ url: line.url, apiKey: API_KEY, adminToken: TOKEN, fetch })).toEqual(RUN_STATUSES);
      expect(await (await coverageOver(line.url)).json()).toEqual(expected);
      mock.child.kill(signal);
      expect(await mock.exit).toEqual({ code: 0, signal: null });
    } finally {
      await mock.stop();
    }
    expect(mock.output()).toContain(`oz-mock: coverage 7 of ${expected.summary.declared} declared responses covered`);
    expect(mock.output()).toContain(`written to ${file}`);
    const text = readFileSync(file, 'utf8');
    if (format === 'json') expect(JSON.parse(text)).toEqual(expected);
    else expect(text).toBe(format === 'html' ? coverageHtml(expected) : coverageText(expected));
  });
});

describe('the page and the table', () => {
  it('the page is self-contained: no script, no external URL; it marks covered, missed and undeclared rows', () => {
    const page = coverageHtml(expected);
    expect(page).not.toMatch(/<script|<link|src=|href=|url\(|@import/i);
    expect(page).toContain('<tr class="covered"><td>424</td><td>connection_required</td>');
    expect(page).toContain('<tr class="missed"><td>424</td><td>credential_required</td>');
    expect(page).toContain('<tr class="undeclared"><td>418</td><td>-</td>');
  });

  it('the table has a row per response of an operation called and one per operation not called', () => {
    const lines = coverageText(expected).split('\n');
    expect(lines.find((l) => l.startsWith('executeAgent '))).toMatch(/^executeAgent +1 +200 +- +no +0 /);
    expect(lines.some((l) => /^ +200 +- +yes +1 +1 +0 +0 +0 +yes$/.test(l))).toBe(true);
    expect(lines.find((l) => l.startsWith('createCompanyItem '))).toMatch(/^createCompanyItem +0 +not called$/);
    expect(lines.at(-2)).toMatch(/^7 of \d+ declared responses covered \(\d+\.\d %\) over the 7 operations called$/);
  });
});

/** Starts oz-mock with these flags, sends one listTools, stops it with SIGINT; answers its exit and output. */
async function gateRun(flags: readonly string[]): Promise<{ code: number | null; output: string }> {
  const { mock, line } = await startOzMock(['--api-key', API_KEY, ...flags]);
  try {
    await (await fetch(`${line.url}/v1/tools`, { headers: { authorization: `Bearer ${API_KEY}` } })).text();
    mock.child.kill('SIGINT');
    const { code } = await mock.exit;
    return { code, output: mock.output() };
  } finally {
    await mock.stop();
  }
}

describe('oz-mock --min-coverage', () => {
  it('exits 1 below it, naming every missed response; 0 at or above it', async () => {
    const [below, above] = await Promise.all([gateRun(['--min-coverage', '0.5']), gateRun(['--min-coverage', '0.1'])]);
    expect(below.code).toBe(1);
    expect(below.output).toContain(
      'oz-mock: --min-coverage 0.5: Coverage 1 of 9 declared responses of the operations called (11.1 %) is below the minimum 50 %. Missed:\n',
    );
    for (const missed of ['listTools 401 unauthorized', 'listTools 404', 'listTools 429 rate_limited', 'listTools 504 timeout'])
      expect(below.output).toContain(`\n  ${missed}\n`);
    expect(above.code).toBe(0);
    expect(above.output).not.toContain('Missed');
  });

  it.each([
    [['--min-coverage', '1.5'], '--min-coverage must be a share from 0 to 1 (0.8 for 80 %), not "1.5"'],
    [['--min-coverage', '80%'], '--min-coverage must be a share from 0 to 1 (0.8 for 80 %), not "80%"'],
    [['--min-coverage=-0.1'], '--min-coverage must be a share from 0 to 1 (0.8 for 80 %), not "-0.1"'],
    [['--coverage', 'out.pdf'], "--coverage out.pdf: the file's name must end with .json, .html or .txt (the form it is written in)"],
  ])('%j is a usage error naming the flag (exit 2)', async (flags, message) => {
    const mock: SpawnedOzMock = spawnOzMock(['--port', '0', ...flags]);
    const { code } = await mock.exit;
    expect(code).toBe(2);
    expect(mock.output()).toBe(`oz-mock: ${message}\n`);
  });
});
