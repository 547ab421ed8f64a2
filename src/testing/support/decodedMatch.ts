// A `%XX` escape (a URL's path, query or form body) or a `\uXXXX` escape (a JSON string).
const ESCAPE = /%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}/y;

/**
 * `text` with every match of `pattern` (a global pattern) replaced by `replacement`, the text read as it would be
 * decoded: a `%XX` or `\uXXXX` escape counts as the character it stands for, so what a pattern names cannot hide
 * behind its encoded spelling (`ozadm%5F...`, `"\u006fzadm_..."`). The raw text that spelled a match is replaced
 * whole; the rest stays as it was.
 */
export function replaceDecoded(text: string, pattern: RegExp, replacement: string): string {
  if (!text.includes('%') && !text.includes('\\u')) return text.replace(pattern, replacement);
  // The decoded text, and where in `text` each of its characters starts (one more entry: the end).
  let decoded = '';
  const starts: number[] = [];
  for (let i = 0; i < text.length;) {
    starts.push(i);
    ESCAPE.lastIndex = i;
    const escape = ESCAPE.exec(text);
    if (escape === null) {
      decoded += text[i];
      i++;
      continue;
    }
    decoded += String.fromCharCode(Number.parseInt(escape[0].slice(escape[0][0] === '%' ? 1 : 2), 16));
    i += escape[0].length;
  }
  starts.push(text.length);
  let out = '';
  let done = 0;
  for (const match of decoded.matchAll(pattern)) {
    if (match[0] === '') continue;
    out += text.slice(done, starts[match.index]) + replacement;
    done = starts[match.index + match[0].length]!;
  }
  return done === 0 ? text : out + text.slice(done);
}
