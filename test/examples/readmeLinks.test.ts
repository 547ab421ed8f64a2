// README.md is the package's page on npm: a relative link there must name a file the tarball has (package.json
// `files`), or it is dead on that page.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { files: string[] };

describe('README links', () => {
  it('link only to files in the tarball (or to headings, or absolute addresses)', () => {
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !t.startsWith('#') && !/^[a-z]+:/.test(t));
    expect(targets.length).toBeGreaterThan(0);
    const packed = (path: string) => pkg.files.some((entry) => path === entry || path.startsWith(`${entry}/`));
    const dead = targets.map((t) => t.replace(/^\.\//, '').replace(/#.*$/, '')).filter((path) => !packed(path) || !existsSync(new URL(path, root)));
    expect(dead).toEqual([]);
  });

  it('the connections example shows the step its retry depends on (the account holder linking, played by the server)', () => {
    const section = readme.slice(readme.indexOf('### Connections'), readme.indexOf('### Retries'));
    const link = section.indexOf("server.linkConnection('demo', 'crm');");
    expect(link).toBeGreaterThan(-1);
    expect(link).toBeLessThan(section.lastIndexOf('await lookup()'));
  });

  it('every heading link goes to a heading', () => {
    const slug = (heading: string) => heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const headings = new Set([...readme.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!.trim())));
    const anchors = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(anchors.filter((a) => !headings.has(a))).toEqual([]);
  });
});
