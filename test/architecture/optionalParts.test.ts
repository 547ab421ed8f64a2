/**
 * What loads on first use is only the named optional parts (`OptionalPart` of src/core/shared/optionalPart.ts), each
 * through `loadPart`: every dynamic `import()` of the sources (but the `oz` command's, a bin built as ESM only)
 * stands inside a `loadPart(...)` call, so the CommonJS build can turn each into a `require` (tsup.config.ts). The
 * one other kind is an `import('node:...')` of Node's own modules inside the Node-only optional parts (the profile
 * file, sign-in): a static one would sit at the top of any bundle holding the part (a Worker's refuses it at load);
 * the CommonJS build makes it a `require` too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOzServer } from '../../src/testing/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The folders of the optional parts that run on Node alone (the profile file, sign-in). */
const NODE_ONLY_PARTS = ['src/profiles/', 'src/signin/'];

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
}

/** Each dynamic `import()` of `file`, with the callee of the call around it that holds it (if any). */
function dynamicImports(file: string): { at: string; loader: string | undefined }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { at: string; loader: string | undefined }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      let outer: ts.Node | undefined = node.parent;
      while (outer && !(ts.isCallExpression(outer) && ts.isIdentifier(outer.expression) && outer.expression.text === 'loadPart')) outer = outer.parent;
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      const specifier = node.arguments[0];
      const nodeModule =
        specifier !== undefined &&
        ts.isStringLiteral(specifier) &&
        specifier.text.startsWith('node:') &&
        NODE_ONLY_PARTS.some((dir) => file.startsWith(join(root, dir)));
      found.push({ at: `${relative(root, file)}:${line + 1}`, loader: outer ? 'loadPart' : nodeModule ? 'node module of a Node-only part' : undefined });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the optional parts', () => {
  afterEach(() => {
    vi.doUnmock('js-yaml');
    vi.resetModules();
  });

  it('are the only code loaded on first use: every dynamic import() of the client and the server is a loadPart', () => {
    const files = sources(join(root, 'src')).filter((file) => !file.startsWith(join(root, 'src/cli/')));
    const imports = files.flatMap(dynamicImports);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((found) => found.loader === undefined)).toEqual([]);
  });

  it('that fails to load is an OzError naming the part, not the error of the call that needed it', async () => {
    vi.resetModules();
    vi.doMock('js-yaml', () => {
      throw new Error('js-yaml is not installed');
    });
    // The client's modules anew, over the mock (the server, imported above, keeps its own js-yaml).
    const { Oz, OzError, OzConnectionError } = await import('../../src/index.js');
    const server = createOzServer();
    try {
      const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off', maxRetries: 0 });
      const error = await oz.tools.execute('echo', { text: 'x' }, { format: 'yaml' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OzError);
      expect(error).not.toBeInstanceOf(OzConnectionError);
      expect((error as Error).message).toMatch(/^The SDK could not load the YAML reader and writer: /);
      expect((error as Error).cause).toBeInstanceOf(Error);
      // The next use tries again.
      vi.doUnmock('js-yaml');
      expect((await oz.tools.execute('echo', { text: 'y' }, { format: 'yaml' })).content).toBe('y');
    } finally {
      await server.close();
    }
  });
});
