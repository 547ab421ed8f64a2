/**
 * `oz-mock --json`: the line it prints has exactly the fields docs/oz-mock.md's "--json output" table documents, each of
 * the documented shape; and `--max-sessions` bounds the sessions of the control plane.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnOzMock, waitForOutput, type SpawnedOzMock } from '../control/spawnOzMock.js';

/** The rows of docs/oz-mock.md's `--json` table: field name and the shape its text names. */
function documentedFields(): Map<string, string> {
  const page = readFileSync(join(ROOT, 'docs/oz-mock.md'), 'utf8');
  const section = page.slice(page.indexOf('### `--json` output'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| field |')));
  const rows = [...table.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)];
  return new Map(rows.map((m) => [m[1]!, m[2]!.trim()]));
}

const SHAPES: Readonly<Record<string, RegExp | Readonly<Record<string, string>>>> = {
  url: /^http:\/\/127\.0\.0\.1:\d+$/,
  mcpUrl: /^http:\/\/127\.0\.0\.1:\d+\/v1$/,
  dashboardUrl: /^http:\/\/127\.0\.0\.1:\d+\/dashboard$/,
  seed: /^demo$/,
  apiKey: /^ozk_[A-Za-z0-9]{32}$/,
  modelsKey: /^sk-mdl-/,
  proxyKey: /^sk-prx-/,
  otherApiKey: /^ozk_[A-Za-z0-9]{32}$/,
  adminToken: /^ozadm_[A-Za-z0-9]{32}$/,
  consoleUrl: /^http:\/\/127\.0\.0\.1:\d+\/_oz\/ui#token=ozadm_[A-Za-z0-9]{32}$/,
  // Started with no key given: oz-mock made every one (and printed it).
  keySources: { apiKey: 'generated', modelsKey: 'generated', proxyKey: 'generated', adminToken: 'generated' },
};

let started: SpawnedOzMock;
let line: Record<string, unknown>;
beforeAll(async () => {
  started = spawnOzMock(['--port', '0', '--mcp-port', '0', '--json', '--max-sessions', '1'], {
    OZ_MOCK_API_KEY: '',
    OZ_MOCK_MODELS_KEY: '',
    OZ_MOCK_PROXY_KEY: '',
    OZ_MOCK_ADMIN_TOKEN: '',
  });
  line = JSON.parse((await waitForOutput(started, /^\{.*\}$/m, 60_000))[0]) as Record<string, unknown>;
}, 90_000);
afterAll(() => started.stop());

describe('oz-mock --json', () => {
  it('prints exactly the documented fields, each of its documented shape', () => {
    const documented = documentedFields();
    expect([...documented.keys()].sort()).toEqual(Object.keys(line).sort());
    for (const [field, value] of Object.entries(line)) {
      const shape = SHAPES[field]!;
      expect({ field, value }).toEqual({ field, value: shape instanceof RegExp ? expect.stringMatching(shape) : shape });
    }
  });

  it("consoleUrl opens the console with the line's own admin token", async () => {
    const consoleUrl = new URL(line.consoleUrl as string);
    expect(consoleUrl.hash).toBe(`#token=${line.adminToken as string}`);
    const page = await fetch(consoleUrl.href.replace(/#.*/, ''));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('--max-sessions bounds the live sessions (429 rate_limited past it)', async () => {
    const admin = { authorization: `Bearer ${line.adminToken as string}` };
    const first = await fetch(`${line.url as string}/_oz/sessions`, { method: 'POST', headers: admin });
    expect(first.status).toBe(201);
    const second = await fetch(`${line.url as string}/_oz/sessions`, { method: 'POST', headers: admin });
    expect(second.status).toBe(429);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });
});
