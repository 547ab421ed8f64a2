/**
 * The built package where users ship it (contract, "Where users build and ship the client"): built code keeps the
 * `node:` prefix of every Node import, and esbuild bundles `oz-sdk`, `oz-sdk/funcs` and `oz-sdk/mcp` (their ESM and
 * CommonJS builds, resolved through package.json as a user's bundler resolves them) for a runtime without Node's
 * modules (platform `neutral` and `browser`; the conditions of an Edge route, a Worker, a browser) with no error, no
 * warning and no Node module: the Node-only parts (`#sign-in`, `#profile-file`) are their stand-ins there. Such a
 * bundle, run, answers `signIn()` with an `OzUsageError` that says it needs Node, and a client without a key reads
 * no profile (the built package for Node does, from the same file).
 */
import { builtinModules } from 'node:module';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOzServer, type OzServer } from '../../src/testing/index.js';
import { builtPackage } from '../support/builtPackage.js';

const BUILTINS = builtinModules.filter((name) => !name.startsWith('_') && !name.startsWith('node:'));
const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** An import, dynamic import, `require` or re-export of a Node built-in written without `node:`. */
const BARE_BUILTIN_IMPORT = new RegExp(
  `(?:\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\brequire\\s*\\(\\s*|^\\s*import\\s*)["'](?:${BUILTINS.map(escape).join('|')})(?:/[^"']*)?["']`,
  'm',
);
/** An import of a Node built-in with `node:` (what a bundle for a runtime without Node must not hold). */
const NODE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s*)["']node:/m;

let pkg: string;
let work: string;
beforeAll(async () => {
  pkg = await builtPackage();
  // A user's project: the built package installed under node_modules, so esbuild reads its "exports" and "imports".
  work = mkdtempSync(join(tmpdir(), 'oz-runtimes-'));
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(pkg, join(work, 'node_modules/oz-sdk'), 'dir');
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the built code', () => {
  it('keeps the node: prefix of every Node import (no `from "fs"`, `require("http")` or `import("os")` in dist/)', () => {
    const files = readdirSync(join(pkg, 'dist'), { recursive: true, encoding: 'utf8' }).filter((file) => /\.c?js$/.test(file));
    const bare = files.filter((file) => BARE_BUILTIN_IMPORT.test(readFileSync(join(pkg, 'dist', file), 'utf8')));
    expect(bare).toEqual([]);
    // The Node-only parts do import Node's modules, with the prefix (so the check above reads real imports).
    expect(readFileSync(join(pkg, 'dist/node/sign-in.js'), 'utf8')).toMatch(/import\(["']node:http["']\)/);
    expect(readFileSync(join(pkg, 'dist/node/profile-file.cjs'), 'utf8')).toMatch(/require\(["']node:fs\/promises["']\)/);
  });

  it('reaches the Node-only parts only through the package\'s "imports", by condition', () => {
    const imports = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { imports: Record<string, Record<string, unknown>> }).imports;
    for (const name of ['#sign-in', '#profile-file']) {
      const file = name.slice(1);
      const offNode = { import: `./dist/off-node/${file}.js`, require: `./dist/off-node/${file}.cjs` };
      expect(imports[name], name).toEqual({
        'edge-light': offNode,
        workerd: offNode,
        worker: offNode,
        browser: offNode,
        node: { import: `./dist/node/${file}.js`, require: `./dist/node/${file}.cjs` },
        default: offNode,
      });
    }
  });
});

const ESM_ENTRY = "export * as sdk from 'oz-sdk'; export * as funcs from 'oz-sdk/funcs'; export * as mcp from 'oz-sdk/mcp';";
const CJS_ENTRY = "module.exports = { sdk: require('oz-sdk'), funcs: require('oz-sdk/funcs'), mcp: require('oz-sdk/mcp') };";
const TARGETS: ReadonlyArray<{ readonly name: string; readonly options: BuildOptions }> = [
  { name: 'neutral, an Edge route (edge-light, worker, browser)', options: { platform: 'neutral', conditions: ['edge-light', 'worker', 'browser'] } },
  { name: 'neutral, a Cloudflare Worker (workerd, worker, browser)', options: { platform: 'neutral', conditions: ['workerd', 'worker', 'browser'] } },
  { name: 'neutral, no condition (default)', options: { platform: 'neutral' } },
  { name: 'browser', options: { platform: 'browser' } },
];

async function bundle(options: BuildOptions, entry: string, format: 'esm' | 'cjs') {
  return build({
    ...options,
    stdin: { contents: entry, resolveDir: work, loader: 'js' },
    bundle: true,
    format,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // platform neutral reads no `main` field by default; a package without "exports" would not resolve.
    mainFields: options.platform === 'browser' ? ['browser', 'module', 'main'] : ['module', 'main'],
  });
}

/** The files of oz-sdk a bundle holds, relative to the package. */
const packageFiles = (metafile: Metafile) =>
  Object.keys(metafile.inputs)
    .map((input) => relative(pkg, resolve(input)))
    .filter((file) => file.startsWith('dist/'));

describe('a bundle for a runtime without Node modules (esbuild)', () => {
  for (const { name, options } of TARGETS) {
    for (const [format, entry] of [
      ['esm', ESM_ENTRY],
      ['cjs', CJS_ENTRY],
    ] as const) {
      it(`${name}, ${format === 'esm' ? 'the ESM build (import)' : 'the CommonJS build (require)'}: no error, no warning, no Node module`, async () => {
        const result = await bundle(options, entry, format);
        expect(result.errors).toEqual([]);
        expect(result.warnings).toEqual([]);
        expect(Object.keys(result.metafile.inputs).filter((input) => input.startsWith('node:') || BUILTINS.includes(input))).toEqual([]);
        expect(result.outputFiles[0]!.text).not.toMatch(NODE_IMPORT);
        const files = packageFiles(result.metafile);
        const ext = format === 'esm' ? 'js' : 'cjs';
        expect(files).toEqual(expect.arrayContaining([`dist/off-node/sign-in.${ext}`, `dist/off-node/profile-file.${ext}`]));
        expect(files.filter((file) => file.startsWith('dist/node/'))).toEqual([]);
      });
    }
  }

  it('for Node (platform node) holds the Node-only parts, whose imports keep node:', async () => {
    const result = await bundle({ platform: 'node' }, ESM_ENTRY, 'esm');
    expect(result.errors).toEqual([]);
    expect(packageFiles(result.metafile)).toEqual(expect.arrayContaining(['dist/node/sign-in.js', 'dist/node/profile-file.js']));
    expect(result.outputFiles[0]!.text).toMatch(NODE_IMPORT);
  });
});

describe('run off Node (the Worker bundle)', () => {
  type Sdk = typeof import('../../src/index.js');
  let offNode: Sdk;
  let onNode: Sdk;
  let server: OzServer;
  let configDir: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    const result = await bundle(TARGETS[1]!.options, ESM_ENTRY, 'esm');
    const file = join(work, 'worker-bundle.mjs');
    writeFileSync(file, result.outputFiles[0]!.text);
    offNode = ((await import(pathToFileURL(file).href)) as { sdk: Sdk }).sdk;
    onNode = (await import(pathToFileURL(join(pkg, 'dist/index.js')).href)) as Sdk;
    server = createOzServer();
    // A profile that would give a key: the built package for Node reads it, the Worker bundle does not.
    configDir = mkdtempSync(join(tmpdir(), 'oz-runtimes-profile-'));
    const profiles = join(configDir, 'profiles.json');
    writeFileSync(profiles, JSON.stringify({ version: 1, profiles: { default: { api_key: server.apiKey, base_url: server.url } } }), { mode: 0o600 });
    chmodSync(profiles, 0o600);
  }, 120_000);
  afterAll(async () => {
    process.env = saved;
    rmSync(configDir, { recursive: true, force: true });
    await server.close();
  });

  it('signIn() is an OzUsageError that says it needs Node', async () => {
    const error = await offNode.signIn({ dashboardURL: 'http://127.0.0.1:9' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(offNode.OzUsageError);
    expect((error as Error).message).toMatch(/^signIn\(\) needs Node\.js/);
  });

  it('a client without a key reads no profile: its call is the OzUsageError "No API key" (on Node the same file gives the key)', async () => {
    process.env = { ...saved, OZ_CONFIG_DIR: configDir, OZ_PROFILE: 'default' };
    delete process.env['OZ_API_KEY'];
    const options = { baseURL: server.url, fetch: server.fetch, maxRetries: 0, logLevel: 'off' } as const;
    const client = new offNode.Oz(options);
    const error = await client.tools.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(offNode.OzUsageError);
    expect((error as Error).message).toMatch(/^No API key: .*no profile of `oz sign-in` is read/);
    await expect(new onNode.Oz(options).tools.list()).resolves.toBeDefined();
  });
});
