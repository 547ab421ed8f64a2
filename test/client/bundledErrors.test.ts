/**
 * The code classes reach a caller whose bundler tree-shakes the package (`sideEffects: false`) and who imports
 * only `Oz`: the error table must not depend on a module's load-time side effect.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'oz-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a tree-shaken bundle that imports only Oz', () => {
  it('still throws the code class of an error code (ToolNotFoundError, not only its status class)', async () => {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import { Oz } from ${JSON.stringify(join(root, 'src/index.ts'))};
const body = JSON.stringify({ error: { code: 'tool_not_found', message: 'No tool named nope.' } });
const fetch = async () => new Response(body, { status: 404, headers: { 'content-type': 'application/json', 'x-error-code': 'tool_not_found' } });
const oz = new Oz({ apiKey: 'ozk_' + 'a'.repeat(32), baseURL: 'http://127.0.0.1:9', fetch, logLevel: 'off', maxRetries: 0 });
oz.tools.get('nope').catch((e) => console.log(e.name, e.status));
`,
    );
    const outfile = join(dir, 'bundle.mjs');
    await build({ entryPoints: [entry], bundle: true, treeShaking: true, format: 'esm', platform: 'node', outfile, logLevel: 'silent' });
    expect(execFileSync(process.execPath, [outfile], { encoding: 'utf8' }).trim()).toBe('ToolNotFoundError 404');
  });
});
