/**
 * The packed tarball carries the docs for coding agents: llms.txt, llms-full.txt and every file llms.txt links,
 * since its links are relative to the package's root (`npm pack --dry-run` lists what `files` of package.json
 * takes; dist/ is the build's and checked by the consumer test).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../docs/repositoryFiles.js';

const packed = (): string[] => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return (JSON.parse(out) as [{ files: { path: string }[] }])[0].files.map((file) => file.path);
};

describe('the packed tarball', () => {
  it('has llms.txt, llms-full.txt and every file llms.txt links', { timeout: 60_000 }, () => {
    const files = packed();
    const linked = [...readFileSync(join(ROOT, 'llms.txt'), 'utf8').matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((m) => m[1]!);
    expect(linked).toContain('docs/oz-mock.md');
    expect(['llms.txt', 'llms-full.txt', ...linked].filter((path) => !files.includes(path))).toEqual([]);
  });
});
