import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'mcp/index': 'src/mcp/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/cli': 'src/testing/cli.ts',
  },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', 'mcp/index': 'src/mcp/index.ts', 'testing/index': 'src/testing/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  // Shared chunks in both formats, so `instanceof` holds across `oz-sdk` and `oz-sdk/mcp` in CJS too.
  splitting: true,
  treeshake: true,
  shims: true,
  // Optional peers and the packages users bring: never bundled.
  external: ['msw', 'msw/node'],
});
