// The layering rule (.dependency-cruiser.cjs, run by `npm run lint:layers` in `npm test`): the real tool passes
// on the tree, and fails on a copy of the tree given one wrong-way import per rule.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/**
 * Runs dependency-cruiser as `npm run lint:layers` does, with the project's config over `src` of `cwd`: its exit
 * code and the violations it reports (`<rule>: <from> -> <to>`).
 */
function cruise(cwd: string): { status: number | null; violations: string[] } {
  const run = spawnSync(process.execPath, [CLI, 'src', '--config', join(root, '.dependency-cruiser.cjs')], { cwd, encoding: 'utf8' });
  if (!/dependencies cruised/.test(run.stdout)) throw new Error(`dependency-cruiser did not run: ${run.stdout}${run.stderr}`);
  const violations = [...run.stdout.matchAll(/^\s*error ([\w-]+): (\S+) \u2192 (\S+)$/gm)].map(([, rule, from, to]) => `${rule}: ${from} -> ${to}`);
  return { status: run.status, violations: violations.sort() };
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the layering rule', () => {
  it('holds on the tree', () => {
    const { status, violations } = cruise(root);
    expect(violations).toEqual([]);
    expect(status).toBe(0);
  }, 60_000);

  it('fails on each wrong-way import, naming the rule, the importer and the imported file', () => {
    const tree = mkdtempSync(join(tmpdir(), 'oz-layers-'));
    scratch.push(tree);
    cpSync(join(root, 'src'), join(tree, 'src'), { recursive: true });
    for (const file of ['openapi.json', 'tsconfig.json', 'package.json']) cpSync(join(root, file), join(tree, file));
    const wrongWay: Record<string, [string, string]> = {
      'core-imports-nothing-of-ours': ['src/core/wrongWay.ts', "export type { OperationId } from '../generated/operations.js';"],
      'generated-imports-only-core': ['src/generated/wrongWay.ts', "export type { Oz } from '../client.js';"],
      'client-never-imports-server': ['src/resources/wrongWay.ts', "export type { OzServer } from '../testing/server.js';"],
      'server-never-imports-client': ['src/testing/wrongWay.ts', "export type { Executions } from '../resources/executions.js';"],
      'resources-beside-each-other': ['src/mcp/wrongWay.ts', "export { signIn } from '../signin/signIn.js';"],
      'handlers-never-import-handlers': ['src/testing/handlers/wrongWay.ts', "export { agentView } from './agents.js';"],
      'nothing-imports-the-cli': ['src/profiles/wrongWay.ts', "export { EXIT } from '../cli/exitCodes.js';"],
      'cli-uses-the-client-only': ['src/cli/wrongWay.ts', "export { signIn } from '../signin/signIn.js';"],
    };
    for (const [path, text] of Object.values(wrongWay)) writeFileSync(join(tree, path), `${text}\n`);

    const { status, violations } = cruise(tree);
    expect(status).toBe(Object.keys(wrongWay).length);
    expect(violations).toEqual(
      [
        'cli-uses-the-client-only: src/cli/wrongWay.ts -> src/signin/signIn.ts',
        'client-never-imports-server: src/resources/wrongWay.ts -> src/testing/server.ts',
        'core-imports-nothing-of-ours: src/core/wrongWay.ts -> src/generated/operations.ts',
        'generated-imports-only-core: src/generated/wrongWay.ts -> src/client.ts',
        'handlers-never-import-handlers: src/testing/handlers/wrongWay.ts -> src/testing/handlers/agents.ts',
        'nothing-imports-the-cli: src/profiles/wrongWay.ts -> src/cli/exitCodes.ts',
        'resources-beside-each-other: src/mcp/wrongWay.ts -> src/signin/signIn.ts',
        'server-never-imports-client: src/testing/wrongWay.ts -> src/resources/executions.ts',
      ].sort(),
    );
    expect([...new Set(violations.map((v) => v.split(':')[0]))].sort()).toEqual(Object.keys(wrongWay).sort());
  }, 60_000);

  it('the command line builds no request itself: no fetch in src/cli, every call goes through the client', () => {
    const files = readdirSync(join(root, 'src/cli')).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(readFileSync(join(root, 'src/cli', file), 'utf8'), file).not.toMatch(/\bfetch\b|new Request\(/);
  });
});
