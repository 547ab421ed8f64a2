// After `tsup`: the declaration files of oz-sdk/testing import msw's types (server.handlers() answers msw
// handlers), but msw is an optional peer. A `// @ts-ignore` before each such import (as Vite does for its
// optional peers) lets `tsc` with `skipLibCheck: false` pass without msw installed; with msw installed the
// types are msw's own. tsup's declaration bundler drops comments, so the line is added here.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OPTIONAL_PEERS = ['msw', 'msw/node'];
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => /\.d\.c?ts$/.test(f));
const importLine = new RegExp(`^(import [^;]* from '(?:${OPTIONAL_PEERS.join('|')})';)$`, 'gm');
let patched = 0;
for (const file of files) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(importLine, (line, _m, offset) => {
    const before = text.slice(Math.max(0, offset - 80), offset);
    if (before.endsWith('// @ts-ignore optional peer\n')) return line;
    patched++;
    return `// @ts-ignore optional peer\n${line}`;
  });
  if (next !== text) writeFileSync(path, next);
}
console.log(`optional peer types: ${patched} import(s) of ${OPTIONAL_PEERS.join(', ')} marked in ${files.length} declaration files`);
