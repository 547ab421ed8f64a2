// What every app of test/apps/ does around its own checks: the packed tarball from OZ_TARBALL, the app installed
// in a temporary copy of its folder (its locked dependencies with `npm ci`, then the tarball), a real oz-mock on a
// free port, commands run with their output kept for the failure message, and a report that sets the exit code.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';

/** The packed tarball the runner made (`OZ_TARBALL`, an absolute path); exits 2 without it. */
export function tarballFromEnv(app) {
  const tarball = process.env.OZ_TARBALL;
  if (!tarball || !isAbsolute(tarball) || !existsSync(tarball)) {
    console.error(`test/apps/${app}: set OZ_TARBALL to the absolute path of the packed oz-sdk tarball (npm pack).`);
    process.exit(2);
  }
  return tarball;
}

/**
 * Runs a command; resolves `{ code, output }` (stdout and stderr interleaved as they came), never rejects. Killed
 * after `timeoutMs`.
 */
export function run(cmd, args, { cwd, env = process.env, timeoutMs = 600_000 } = {}) {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code ?? error.signal ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** Runs a command and throws with its output when it fails; answers the output. */
export async function mustRun(cmd, args, options) {
  const { code, output } = await run(cmd, args, options);
  if (code !== 0) throw new Error(`${basename(cmd)} ${args.join(' ')} exited ${code}:\n${output.slice(-4000)}`);
  return output;
}

/**
 * A temporary copy of the app folder `here` (without node_modules and build output) with its locked dependencies
 * installed (`npm ci`) and then the tarball (`npm install --no-save`, which keeps the lock file's versions).
 */
export async function installApp(here, tarball) {
  const dir = mkdtempSync(join(tmpdir(), `oz-app-${basename(here)}-`));
  cpSync(here, dir, { recursive: true, filter: (path) => !/[\\/](node_modules|\.next|dist)$/.test(path) });
  const npm = ['--no-audit', '--no-fund', '--prefer-offline'];
  await mustRun('npm', ['ci', ...npm], { cwd: dir });
  await mustRun('npm', ['install', '--no-save', ...npm, tarball], { cwd: dir });
  return dir;
}

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * `count` distinct free ports on 127.0.0.1: every listener stays open until all are picked, so two picks cannot
 * be the same port (one picked, closed and picked again).
 */
export async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise((resolve, reject) => {
        server.on('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((server) => server.address().port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(() => resolve()))));
  }
}

/**
 * Starts the installed package's oz-mock (`node <bin>`, not npx: npx's child would keep the port after a kill)
 * on a free port; answers its `--json` line (`url`, `apiKey`, ...) and `stop()`.
 */
export function startOzMock(dir) {
  const bin = join(dir, 'node_modules/oz-sdk/dist/testing/cli.js');
  const child = spawn(process.execPath, [bin, '--port', '0', '--json'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.on('close', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`oz-mock printed no JSON line within 30 s: ${out}`)), 30_000);
    const fail = (error) => {
      clearTimeout(timer);
      stop().then(() => reject(error));
    };
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', fail);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      resolve({ ...JSON.parse(out.slice(0, newline)), stop });
    });
  });
}

const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));
// Where a bundle names a module it loads: require("x"), import("x"), from "x", Turbopack's externals (e.x("x")),
// webpack's externals in source map sources (external commonjs "x") and Next's stub of an unsupported Edge import.
const MODULE_REFERENCE =
  /(?:require\(|import\(|\bfrom|\.x\(|external (?:commonjs|module|node-commonjs) |__import_unsupported\()\s*\\?["'`](?:node:)?([a-z_/]+)\\?["'`]/g;

/** The Node built-in modules a bundle's text (code or source map) loads or stubs, `node:` prefix or not. */
export function builtinsIn(text) {
  const found = new Set();
  for (const [, name] of text.matchAll(MODULE_REFERENCE)) if (BUILTINS.has(name)) found.add(name);
  return found;
}

/** Throws `message` unless `condition` holds. */
export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * The app's checks, in groups run in turn, each check timed; prints one line per check and sets the exit code (1 when
 * one failed). A failed check skips the rest of its group (they need what it made), and a failure in the first group
 * (the setup) skips every group. `cleanup` runs at the end whatever happened.
 */
export async function runChecks(app, groups, cleanup = async () => {}) {
  let failed = 0;
  let setupFailed = false;
  try {
    for (const [g, group] of groups.entries()) {
      let skipping = setupFailed;
      for (const [name, check] of group) {
        if (skipping) {
          console.log(`  skip  ${app}: ${name} (an earlier check failed)`);
          continue;
        }
        const started = performance.now();
        const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
        try {
          await check();
          console.log(`  ok    ${app}: ${name} (${seconds()} s)`);
        } catch (error) {
          failed++;
          skipping = true;
          setupFailed ||= g === 0;
          // A failed assertion or command says what failed in its message; anything else shows where it was thrown.
          const detail = error?.constructor === Error ? error.message : String(error?.stack ?? error);
          console.log(`  FAIL  ${app}: ${name} (${seconds()} s)\n${detail.replace(/^/gm, '        ')}`);
        }
      }
    }
  } finally {
    await cleanup();
  }
  process.exitCode = failed === 0 ? 0 : 1;
}

/** Removes a temporary folder (for `runChecks`' cleanup). */
export function removeFolder(dir) {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
