/**
 * The root entry's export of the code classes (src/index.ts) and the class tree of docs/errors.md are written by
 * `npm run generate` from openapi.json's `ErrorCode` (scripts/codegen/errors.mjs, scripts/codegen/errorTree.mjs):
 * a new code's class is exported and drawn without a hand edit, and `npm run check:generated` fails on drift.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import openapi from '../../openapi.json' with { type: 'json' };
// @ts-expect-error: the codegen is plain JavaScript without declarations
import { errorCodesOf as errorCodesOfUntyped, withErrorExports as withErrorExportsUntyped } from '../../scripts/codegen/errors.mjs';
// @ts-expect-error: the codegen is plain JavaScript without declarations
import { renderErrorTree as renderErrorTreeUntyped, withErrorTree as withErrorTreeUntyped } from '../../scripts/codegen/errorTree.mjs';

interface Code {
  code: string;
  status: number;
  name: string;
  base: string;
  fromCore: boolean;
}
type Json = Record<string, unknown>;
const errorCodesOf = errorCodesOfUntyped as (doc: Json, coreClasses: Set<string>) => Code[];
const withErrorExports = withErrorExportsUntyped as (entry: string, codes: Code[]) => string;
const renderErrorTree = renderErrorTreeUntyped as (codes: Code[], statusClasses: string[]) => string;
const withErrorTree = withErrorTreeUntyped as (page: string, tree: string) => string;

const read = (relative: string) => readFileSync(fileURLToPath(new URL(`../../${relative}`, import.meta.url)), 'utf8');
const CORE = new Set([...read('src/core/errors/apiErrors.ts').matchAll(/^export class (\w+)/gm)].map((m) => m[1]!));
const STATUS_CLASSES = [...read('src/core/errors/apiErrors.ts').matchAll(/^export class (Http\w+Error) extends OzAPIError/gm)].map((m) => m[1]!);

/** openapi.json's codes, plus one new code at `status`. */
function withNewCode(status: number): Code[] {
  const doc = structuredClone(openapi) as unknown as { components: { schemas: { ErrorCode: { oneOf: Json[] } } } };
  doc.components.schemas.ErrorCode.oneOf.push({ const: 'quota_exhausted', 'x-oz-status': status, description: 'The quota ran out.' });
  return errorCodesOf(doc as unknown as Json, CORE);
}

describe("the root entry's export of the code classes", () => {
  it('is what the generator writes (npm run check:generated holds it)', () => {
    const entry = read('src/index.ts');
    expect(withErrorExports(entry, errorCodesOf(openapi as unknown as Json, CORE))).toBe(entry);
  });

  it("exports a new code's class, name by name, and not a class of the core twice", () => {
    const written = withErrorExports(read('src/index.ts'), withNewCode(429));
    expect(written).toContain("  QuotaExhaustedError,\n} from './generated/errors.js';");
    const block = written.slice(written.indexOf('// generated: the code classes'), written.indexOf('// end of the generated code classes'));
    expect(block).toContain('InvalidJsonError');
    expect(block).not.toContain('UnauthorizedError');
    expect(block).not.toContain('export *');
  });

  it('throws without its markers, naming them', () => {
    expect(() => withErrorExports('export { Oz } from "./client.js";\n', withNewCode(429))).toThrow(/needs its markers/);
  });
});

describe('the error tree of docs/errors.md', () => {
  it('is what the generator writes, with every code class under its status class', () => {
    const page = read('docs/errors.md');
    const codes = errorCodesOf(openapi as unknown as Json, CORE);
    expect(withErrorTree(page, renderErrorTree(codes, STATUS_CLASSES))).toBe(page);
    for (const code of codes) expect(page, code.name).toContain(code.name);
  });

  it("draws a new code's class on its status class's line", () => {
    const tree = renderErrorTree(withNewCode(413), STATUS_CLASSES);
    expect(tree).toMatch(/│ {3}├── Http413Error {19}PayloadTooLargeError, QuotaExhaustedError\n/);
  });

  it('wraps a long line under the column', () => {
    const tree = renderErrorTree(withNewCode(404), STATUS_CLASSES);
    const lines = tree.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(112);
    expect(lines.find((l) => l.includes('QuotaExhaustedError'))).toMatch(/^│ {3}│ {34}\S/);
  });

  it('throws without its markers', () => {
    expect(() => withErrorTree('# Errors\n', 'tree')).toThrow(/needs its markers/);
  });
});
