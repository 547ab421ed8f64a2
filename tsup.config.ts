import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import type { Plugin } from 'esbuild';
import { consoleScript } from './src/testing/control/consoleScript.js';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

// What a user installs with the package: its runtime dependencies and its (optional) peers. Every other package
// the sources import (hono, @hono/node-server and whatever else only the embedded server needs) is a
// devDependency bundled into the entries that use it, so a client-only install stays lean while `oz-sdk/testing`
// and `oz-mock` keep working after a plain install. The client never imports those packages, so only the testing
// entries (and the chunks they alone share) carry them.
const installed = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const installedPackage = new RegExp(`^(?:${installed.map(escape).join('|')})(?:/|$)`);
/** A bare import of a package that is not installed with oz-sdk (not relative, not a Node built-in). */
const bundledPackage = new RegExp(`^(?![./]|node:|(?:${installed.map(escape).join('|')})(?:/|$))`);

// Three builds, each with its own shared chunks. esbuild splits an entry's code into one chunk per set of entry
// points (lazy chunks included) that reach it, and Node's ESM loader pays about a millisecond per file on a cold
// import: one build of every entry made `import('oz-sdk')` load 18 files where the client needs its own. Only the
// client's entries must share their chunks (`instanceof` across `oz-sdk`, `oz-sdk/mcp` and `oz-sdk/funcs`); the
// embedded server shares nothing but constants with them (it never imports the client), and the `oz` command runs
// in a process of its own.
const shared = {
  format: ['esm', 'cjs'],
  // Each build cleans only its own outputs: the dist/ folder is emptied once, below.
  clean: false,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  // Built code keeps the `node:` prefix of every Node import (tsup drops it by default): a bundler for a runtime
  // without Node modules then reports such an import as what it is. The sources write it; `nodePrefix` (below)
  // adds it to the bundled packages' bare imports (`'fs'`).
  removeNodeProtocol: false,
  // Shared chunks in both formats, so `instanceof` holds across `oz-sdk`, `oz-sdk/mcp` and `oz-sdk/funcs` in CJS too.
  splitting: true,
  treeshake: true,
  // No shims: the one `import.meta.url` of the sources sits behind `typeof __filename` (CJS has it, ESM does not),
  // and an ESM `__filename` shim would call `fileURLToPath(import.meta.url)` at import time, which throws where
  // modules have no file URL (Cloudflare Workers).
  shims: false,
  // Runtime dependencies and peers (msw stays optional): never bundled.
  external: [installedPackage],
  noExternal: [bundledPackage],
} satisfies Options;

// A bare import of a Node built-in (`'fs'`, `'fs/promises'`), as the packages bundled into the embedded server write
// them: kept as an import, with the `node:` prefix. (A builtin of `builtinModules` without `node:` but `_`-private ones.)
const BARE_BUILTIN = new RegExp(
  `^(?:${builtinModules
    .filter((name) => !name.startsWith('_') && !name.startsWith('node:'))
    .map(escape)
    .join('|')})$`,
);
const nodePrefix: Plugin = {
  name: 'node-prefix',
  setup(build) {
    build.onResolve({ filter: BARE_BUILTIN }, (args) => ({ path: `node:${args.path}`, external: true }));
  },
};

// The Node-only parts of the client (sign-in's listener and browser opener, the profile file): optional parts,
// loaded on first use (`loadPart`), that the built package reaches through its own import map (package.json
// "imports"), by condition: the Node file under `node`, a stand-in that imports nothing under every other condition
// (`edge-light`, `workerd`, `worker`, `browser`, `default`). So a bundler for an Edge route, a Worker or a browser
// picks the stand-in and meets no Node module. The sources import the Node file (tests and tsx run on Node); this
// build swaps that import for the `#name` one, and builds both files as entries `dist/node/<name>` and
// `dist/off-node/<name>` (package.json's "imports" names them: test/architecture/builtForEveryRuntime.test.ts holds the two alike).
export const NODE_PARTS = {
  '#sign-in': { node: 'src/signin/signInFlow.ts', offNode: 'src/signin/signInFlowOffNode.ts' },
  '#profile-file': { node: 'src/profiles/profileLookup.ts', offNode: 'src/profiles/profileLookupOffNode.ts' },
} as const;
const ROOT = fileURLToPath(new URL('.', import.meta.url));
const NODE_PART_BY_FILE = new Map(Object.entries(NODE_PARTS).map(([name, { node }]) => [resolve(ROOT, node), name]));
const nodePartEntries = Object.fromEntries(
  Object.entries(NODE_PARTS).flatMap(([name, files]) => [
    [`node/${name.slice(1)}`, files.node],
    [`off-node/${name.slice(1)}`, files.offNode],
  ]),
);
const nodePartsByCondition: Plugin = {
  name: 'node-parts-by-condition',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import' && args.kind !== 'require-call') return undefined;
      const name = NODE_PART_BY_FILE.get(resolve(dirname(args.importer), args.path.replace(/\.js$/, '.ts')));
      return name === undefined ? undefined : { path: name, external: true };
    });
  },
};

// The CommonJS builds load the SDK's optional parts (`loadPart` of src/core/shared/optionalPart.ts: YAML, the response
// validators, spans, sign-in, the profile file) with `require`: jest's CommonJS defaults (and other CommonJS hosts)
// cannot run a dynamic `import()`. Every `import('literal')` of the sources is such a loader (a test holds it), so
// each becomes a `require` there; esbuild then bundles the required module in the chunk, evaluated on first use.
// (tsup builds CommonJS with splitting through esbuild's ESM output, so the format is told by the output's extension.)
const DYNAMIC_IMPORT = /(?<!typeof\s*)\bimport\((\s*'[^']+'\s*)\)/g;
const requireInCommonJS: Plugin = {
  name: 'require-in-commonjs',
  setup(build) {
    if (build.initialOptions.outExtension?.['.js'] !== '.cjs') return;
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      return source.includes('import(') ? { loader: 'ts', contents: source.replace(DYNAMIC_IMPORT, 'Promise.resolve().then(() => require($1))') } : undefined;
    });
  },
};

// The console page's script (`/_oz/ui/console.js`), bundled for the browser now and put in the server's build as a
// string in place of the module that bundles it from the sources: the package carries no bundler (nor does the
// single executable of `npm run build:binary`, which bundles the bin with this plugin too).
const CONSOLE_SCRIPT = fileURLToPath(new URL('./src/testing/control/consoleScript.ts', import.meta.url));
export const consoleScriptInlined: Plugin = {
  name: 'console-script-inlined',
  setup(build) {
    build.onLoad({ filter: /consoleScript\.ts$/ }, (args) =>
      args.path === CONSOLE_SCRIPT
        ? { loader: 'ts', contents: `export function consoleScript(): string { return ${JSON.stringify(consoleScript())}; }` }
        : undefined,
    );
  },
};

const clientEntries: Record<string, string> = {
  index: 'src/index.ts',
  'mcp/index': 'src/mcp/index.ts',
  // `oz-sdk/funcs`: OzCore and one standalone function per operation, for bundles that import one or two.
  'funcs/index': 'src/funcs/index.ts',
};
const testingEntries: Record<string, string> = { 'testing/index': 'src/testing/index.ts', 'testing/cli': 'src/testing/cli.ts' };

// tsup builds CommonJS with splitting through esbuild's ESM output, where a `require` of an external module becomes
// `__require("#sign-in")`: Node runs it, but a bundler does not see it as a `require` and leaves the part out (it
// then fails on first use). Each such call of a Node-only part is made a plain `require` again.
type TsupPlugin = NonNullable<Options['plugins']>[number];
const requireOfNodeParts: TsupPlugin = {
  name: 'require-of-node-parts',
  renderChunk(code: string, info: { readonly path: string }) {
    if (!info.path.endsWith('.cjs')) return undefined;
    return { code: code.replace(/\b__require\((["']#)/g, 'require($1') };
  },
};

// An ES module entry may import a shared chunk for its evaluation only (`import '../chunk-X.js';`). The package is
// `"sideEffects": false`, so a bundler drops such an import, and esbuild warns that it did: the import is left out here.
const BARE_CHUNK_IMPORT = /^import ['"]\.\.?\/(?:\.\.\/)*chunk-[\w-]+\.js['"];\n/gm;
const noBareChunkImport: TsupPlugin = {
  name: 'no-bare-chunk-import',
  renderChunk(code: string, info: { readonly path: string }) {
    return info.path.endsWith('.js') ? { code: code.replace(BARE_CHUNK_IMPORT, '') } : undefined;
  },
};

/** The three builds, without their declaration files. The client's entries are one build: they share their chunks. */
export const builds: readonly Options[] = [
  {
    ...shared,
    entry: { ...clientEntries, ...nodePartEntries },
    esbuildPlugins: [requireInCommonJS, nodePartsByCondition, nodePrefix],
    plugins: [requireOfNodeParts, noBareChunkImport],
  },
  { ...shared, entry: testingEntries, esbuildPlugins: [requireInCommonJS, consoleScriptInlined, nodePrefix] },
  // The `oz` command line: an entry of its own, so the client's bundle carries none of it. A bin runs in a process
  // of its own (`bin` points at dist/cli/oz.js), so ESM only: its commands load on first use with `import()`.
  { ...shared, format: ['esm'], entry: { 'cli/oz': 'src/cli/main.ts' }, esbuildPlugins: [nodePrefix] },
];

export default defineConfig((): Options[] => {
  // The builds run at once, so none of them may clean dist/ (one would delete what another wrote): emptied here.
  rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
  const declarations = [{ entry: clientEntries }, { entry: { 'testing/index': testingEntries['testing/index']! } }, false] as const;
  return builds.map((options, i) => ({ ...options, dts: declarations[i] }));
});
