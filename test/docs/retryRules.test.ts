// docs/retries-and-idempotency.md names, for each rule of the reference client, the test that holds it: every
// test it names exists, in the file it names, so the table cannot drift from the suite.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const page = readFileSync('docs/retries-and-idempotency.md', 'utf8');
const table = page.slice(page.indexOf("### The reference client's rules"), page.indexOf('## Retry policy'));
const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Rule') && !line.startsWith('| ---'));

/** Each `file`: "title", "title" group of a row's second cell; `...` stands for any text of the title. */
function citations(cell: string): { file: string; title: string }[] {
  const found: { file: string; title: string }[] = [];
  for (const group of cell.split(';')) {
    const file = /`(test\/[^`]+)`/.exec(group)?.[1];
    for (const [, title] of group.matchAll(/"([^"]+)"/g)) if (file !== undefined && title !== undefined) found.push({ file, title });
  }
  return found;
}

describe('the retry rules table of docs/retries-and-idempotency.md', () => {
  it('has the rules of the reference client, each with at least one test', () => {
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows) expect(citations(row.split(' | ')[1] ?? ''), row).not.toEqual([]);
  });

  it.each(rows.flatMap((row) => citations(row.split(' | ')[1] ?? '')))('$file holds "$title"', ({ file, title }) => {
    const source = readFileSync(file, 'utf8');
    const pieces = title
      .split('...')
      .map((piece) => piece.trim())
      .filter(Boolean);
    const line = source.split('\n').find((text) => /\bit(\.each\([^)]*\))?\(|it\.each|\)\(['"`]/.test(text) && pieces.every((piece) => text.includes(piece)));
    expect(line, `${file} has no test titled like "${title}"`).toBeDefined();
  });
});
