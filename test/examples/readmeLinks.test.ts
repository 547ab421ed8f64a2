// README.md is the package's page on npm: a relative link there must name a file the tarball has (package.json
// `files`, whose entries are paths or `dir/*.ext` patterns), or it is dead on that page. The pages of docs/ are in
// the tarball too, so their links to each other work from node_modules/oz-sdk as in the repository.
// (test/docs/links.test.ts checks that every link of every page resolves.)
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { files: string[] };

/** Whether package.json's `files` puts this path of the repository in the tarball. */
function packed(path: string): boolean {
  return pkg.files.some((entry) => {
    if (!entry.includes('*')) return path === entry || path.startsWith(`${entry}/`);
    const pattern = new RegExp(`^${entry.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    return pattern.test(path);
  });
}

describe('README links', () => {
  it('link only to files in the tarball (or to headings, or absolute addresses)', () => {
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !t.startsWith('#') && !/^[a-z]+:/.test(t));
    expect(targets.length).toBeGreaterThan(0);
    const dead = targets.map((t) => t.replace(/^\.\//, '').replace(/#.*$/, '')).filter((path) => !packed(path) || !existsSync(new URL(path, root)));
    expect(dead).toEqual([]);
  });

  it('the pages of docs/ are in the tarball, and the TypeDoc output under docs/api/ is not', () => {
    expect(packed('docs/streams.md')).toBe(true);
    expect(packed('docs/api/index.html')).toBe(false);
  });

  it('the connections example shows the step its retry depends on (the account holder linking, played by the server)', () => {
    const page = readFileSync(new URL('docs/errors.md', root), 'utf8');
    const section = page.slice(page.indexOf('## Connections'));
    const link = section.indexOf("server.linkConnection('demo', 'crm');");
    expect(link).toBeGreaterThan(-1);
    expect(link).toBeLessThan(section.lastIndexOf('await lookup()'));
  });
});
