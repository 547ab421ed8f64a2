/**
 * scripts/readme-snippets.mjs: the TypeScript blocks of README.md and of every page of docs/ come from regions of
 * files that run; `--check` fails when a block differs from its source, names a missing file or region, or has no
 * marker.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'readme-snippets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(markdown: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string; text: string }> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.md`);
  writeFileSync(file, markdown);
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/readme-snippets.mjs', ...args, '--readme', file], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr, text: readFileSync(file, 'utf8') });
    });
  });
}

const QUICKSTART_CLIENT = 'const oz = new Oz(); // reads OZ_API_KEY and OZ_BASE_URL';

describe('readme-snippets', () => {
  it('README.md matches the examples it is taken from', async () => {
    const result = await run(readFileSync(join(ROOT, 'README.md'), 'utf8'), '--check');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('without --readme, checks README.md and every page of docs/', async () => {
    const pages = 1 + readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).length;
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['scripts/readme-snippets.mjs', '--check'], { cwd: ROOT }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${pages} pages match their sources`);
    expect(pages).toBeGreaterThan(20);
  });

  it('fills a marked block with the regions it names, joined by a blank line and without region markers', async () => {
    const result = await run('# t\n\n<!-- snippet: examples/quickstart.ts#import,quickstart -->\n```ts\nold\n```\n');
    expect(result.code).toBe(0);
    expect(result.text).toMatch(/^```ts\nimport \{ Oz \} from 'oz-sdk';\n\nconst oz = new Oz\(\);/m);
    expect(result.text).toContain(QUICKSTART_CLIENT);
    expect(result.text).not.toContain('#region');
    expect(result.text).not.toContain('old');
  });

  it("fills a shell block from a script's `# #region` markers", async () => {
    const result = await run('<!-- snippet: examples/cli.sh#errors -->\n```sh\nold\n```\n');
    expect(result.code).toBe(0);
    expect(result.text).toMatch(/^```sh\noz tools execute nope --text x \|\| echo "exit \$\?"/m);
    expect(result.text).not.toContain('#region');
  });

  it('removes the common indentation of a region inside a block', async () => {
    const result = await run('<!-- snippet: examples/testing/vitest.test.ts#test-connected -->\n```ts\n```\n');
    expect(result.text).toMatch(/^it\('opens an item/m);
  });

  it('--check fails on a stale block, and leaves the file as it was', async () => {
    const stale = '<!-- snippet: examples/quickstart.ts#quickstart -->\n```ts\nconst oz = new Oz({});\n```\n';
    const result = await run(stale, '--check');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/differs from its sources from line 3/);
    expect(result.stderr).toContain('npm run docs:readme');
    expect(result.text).toBe(stale);
  });

  it('--check fails on a TypeScript block without a marker, but not on shell or text blocks', async () => {
    const result = await run('```sh\nnpm ci\n```\n\n```text\nout\n```\n\n```ts\nconst x = 1;\n```\n', '--check');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/:9: a ts block without a <!-- snippet: file#region --> marker/);
  });

  it('fails on a missing region, a missing file, and a marker without a block', async () => {
    const result = await run(
      '<!-- snippet: examples/quickstart.ts#nope -->\n```ts\n```\n<!-- snippet: examples/nope.ts -->\n```ts\n```\n<!-- snippet: examples/quickstart.ts -->\ntext\n',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('examples/quickstart.ts: no region "nope"');
    expect(result.stderr).toContain('no file examples/nope.ts');
    expect(result.stderr).toContain('a snippet marker must be followed by a fenced code block');
  });
});
