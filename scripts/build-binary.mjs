// `npm run build:binary`: `oz-mock` as one executable for this machine's platform, which runs where no Node.js is
// installed (Node's single executable applications): the bin bundled from src/testing/cli.ts into one CommonJS
// script (the console page's script inlined as in the package's build), made a SEA blob by this Node, and injected
// with postject into a copy of this Node's own binary. Writes dist-bin/oz-mock (oz-mock.exe on Windows).
import { execFileSync } from 'node:child_process';
import { copyFileSync, chmodSync, mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { inject } from 'postject';
import { consoleScriptInlined } from '../tsup.config.ts';
import { binaryFileOf } from './binary/binaryFile.ts';
import { SEA_FUSE, SEA_RESOURCE, seaConfigOf, seaProblemOf } from './binary/sea.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const output = binaryFileOf(root);
const darwin = process.platform === 'darwin';

/**
 * Runs postject without the "Can't find string offset for section name '.note...'" lines its ELF library writes
 * for Node's binary: harmless, the executable runs (nodejs/postject#83); any other warning still shows.
 */
async function withoutLiefNoteWarnings(run) {
  const warn = console.warn;
  console.warn = (...args) => {
    if (!/^warning: Can't find string offset for section name '\.note/.test(String(args[0]))) warn(...args);
  };
  try {
    return await run();
  } finally {
    console.warn = warn;
  }
}

const problem = seaProblemOf(process.version, readFileSync(process.execPath));
if (problem) {
  console.error(`build:binary: ${problem}`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'oz-mock-sea-'));
try {
  const script = join(work, 'oz-mock.cjs');
  const blob = join(work, 'oz-mock.blob');
  // One CommonJS script: a SEA's `require` loads Node's built-in modules only.
  await build({
    entryPoints: [join(root, 'src/testing/cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    outfile: script,
    plugins: [consoleScriptInlined],
    // The msw mount's `import.meta.url` stands behind `typeof __filename`, which a SEA's script has.
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(seaConfigOf(script, blob)));
  execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: ['ignore', 'ignore', 'inherit'] });
  mkdirSync(dirname(output), { recursive: true });
  rmSync(output, { force: true });
  copyFileSync(process.execPath, output);
  chmodSync(output, 0o755);
  // macOS runs only signed binaries: Node's signature goes before the injection, an ad-hoc one after it.
  if (darwin) execFileSync('codesign', ['--remove-signature', output]);
  await withoutLiefNoteWarnings(() =>
    inject(output, SEA_RESOURCE, readFileSync(blob), { sentinelFuse: SEA_FUSE, ...(darwin ? { machoSegmentName: 'NODE_SEA' } : {}) }),
  );
  if (darwin) execFileSync('codesign', ['--sign', '-', output]);
  const mib = (statSync(output).size / 2 ** 20).toFixed(1);
  console.log(`build:binary: ${output} (${mib} MiB, ${process.platform}-${process.arch}, Node ${process.version})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
