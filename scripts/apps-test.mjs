#!/usr/bin/env node
// `npm run test:apps [-- <app> ...]`: the small real apps of test/apps/, each installed from the packed tarball.
//
// Packs the package once (building it first when dist/ is missing or older than src/, package.json or
// tsup.config.ts), then runs every test/apps/<name>/run.mjs in turn (or only the apps named) with the tarball's
// absolute path in OZ_TARBALL. Each app installs the tarball and its own locked dependencies in a temporary folder
// and exits non-zero when a check fails (the contract of test/apps/README.md). Prints a table of the apps with
// their time; exits 1 when one failed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const appsDir = join(root, 'test/apps');

/** The newest modification time under `path` (0 when it does not exist). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

function apps() {
  const all = readdirSync(appsDir).filter((name) => existsSync(join(appsDir, name, 'run.mjs')));
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !all.includes(name));
  if (unknown.length > 0) {
    console.error(`test:apps: no app ${unknown.join(', ')} in test/apps (there are: ${all.join(', ')})`);
    process.exit(2);
  }
  return asked.length > 0 ? asked : all;
}

function runApp(name, tarball) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(appsDir, name, 'run.mjs')], { stdio: 'inherit', env: { ...process.env, OZ_TARBALL: tarball } });
    child.on('close', (code, signal) => resolve({ name, ok: code === 0, exit: code ?? signal, seconds: (performance.now() - started) / 1000 }));
  });
}

function table(results) {
  const rows = results.map((r) => [r.name, r.ok ? 'ok' : `FAILED (exit ${r.exit})`, `${r.seconds.toFixed(1)} s`]);
  const header = ['app', 'result', 'time'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((value, i) => value.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const names = apps();
const work = mkdtempSync(join(tmpdir(), 'oz-apps-'));
try {
  const started = performance.now();
  const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'package.json')), newest(join(root, 'tsup.config.ts')));
  if (newest(join(root, 'dist')) < sources || !existsSync(join(root, 'dist/index.js'))) {
    console.log('== build (dist/ is missing or older than the sources)');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  }
  const packed = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
  const tarball = join(work, packed.trim().split('\n').pop());
  const results = [];
  for (const name of names) {
    console.log(`== test/apps/${name}`);
    results.push(await runApp(name, tarball));
  }
  console.log(`\n${table(results)}`);
  console.log(`${results.length} apps, ${results.filter((r) => !r.ok).length} failed, ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  process.exitCode = results.every((r) => r.ok) ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
