/**
 * The project has one reader of server-sent events, the client's (src/core/streams/sseParser.ts, under
 * sseReader.ts): no other source parses an event stream's lines or imports another parser. What writes events
 * (the embedded server's `event: ...` lines) is not reading them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const THE_READER = 'src/core/streams/';

// What reading event-stream lines by hand, or with another parser, looks like.
const READING_EVENTS: readonly RegExp[] = [
  /startsWith\(\s*['"`](?:data|event|id|retry):/,
  /split\(\s*\/\\r\?\\n\\r\?\\n\//,
  /from\s+['"](?:eventsource-parser|eventsource|@microsoft\/fetch-event-source|parse-sse)[/'"]/,
  /new\s+EventSource\s*\(/,
];

/** The lines of `text` that read server-sent events another way than the client's reader. */
function otherReaders(text: string): string[] {
  return text.split('\n').filter((line) => READING_EVENTS.some((pattern) => pattern.test(line)));
}

describe('one reader of server-sent events', () => {
  it('no source but src/core/streams/ reads event-stream lines or imports another parser', () => {
    const found: string[] = [];
    for (const file of readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })) {
      const path = `src/${file}`;
      if (!path.endsWith('.ts') || path.startsWith(THE_READER)) continue;
      for (const line of otherReaders(readFileSync(join(root, path), 'utf8'))) found.push(`${relative(root, join(root, path))}: ${line.trim()}`);
    }
    expect(found).toEqual([]);
  });

  it("sees a reader of its own: parity's old one, a split on blank lines, another parser", () => {
    const old = [
      '  for (const block of text.split(/\\r?\\n\\r?\\n/)) {',
      "      if (line.startsWith('event:')) event = line.slice(6).trim();",
      "import { createParser } from 'eventsource-parser';",
      '  const source = new EventSource(url);',
      "  const stream = serializeEvent('event: ready', data);",
    ].join('\n');
    expect(otherReaders(old)).toHaveLength(4);
  });
});
