import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

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

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'mcp/index': 'src/mcp/index.ts',
    // `oz-sdk/funcs`: OzCore and one standalone function per operation, for bundles that import one or two.
    'funcs/index': 'src/funcs/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/cli': 'src/testing/cli.ts',
    // The `oz` command line: an entry of its own, so the client's bundle carries none of it.
    'cli/oz': 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', 'mcp/index': 'src/mcp/index.ts', 'funcs/index': 'src/funcs/index.ts', 'testing/index': 'src/testing/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  // Shared chunks in both formats, so `instanceof` holds across `oz-sdk` and `oz-sdk/mcp` in CJS too.
  splitting: true,
  treeshake: true,
  // No shims: the one `import.meta.url` of the sources sits behind `typeof __filename` (CJS has it, ESM does not),
  // and an ESM `__filename` shim would call `fileURLToPath(import.meta.url)` at import time, which throws where
  // modules have no file URL (Cloudflare Workers).
  shims: false,
  // Runtime dependencies and peers (msw stays optional): never bundled.
  external: [installedPackage],
  noExternal: [bundledPackage],
});
