import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The console page's entry (browser code: `console/page.ts` and what it imports). */
const PAGE_ENTRY = './console/page.ts';

let bundled: string | undefined;

/**
 * The console page's script (`/_oz/ui/console.js`): `console/page.ts` bundled for the browser. The package's
 * build puts the bundled text in place of this module (tsup.config.ts calls this function at build time), so the
 * package carries no bundler; from the sources (tests, `tsx`) it is bundled here once, with the devDependency
 * esbuild.
 */
export function consoleScript(): string {
  if (bundled === undefined) {
    const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
    const result = esbuild.buildSync({
      entryPoints: [fileURLToPath(new URL(PAGE_ENTRY, import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      legalComments: 'none',
      charset: 'utf8',
    });
    bundled = result.outputFiles[0]!.text;
  }
  return bundled;
}
