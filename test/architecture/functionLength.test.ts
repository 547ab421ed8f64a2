/**
 * No function of src/ (src/generated/ aside: codegen writes it) is longer than 80 lines: every function
 * declaration, method, constructor, accessor, function expression and arrow function, found with the TypeScript
 * compiler's parser; a long one is reported as `file:line (length lines, name)`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAX_LINES = 80;

const SKIPPED = ['src/generated/'];

/** A function longer than the limit. */
interface LongFunction {
  readonly where: string;
  readonly lines: number;
  readonly name: string;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder)).flatMap((name) => {
    const path = `${folder}/${name}`;
    if (SKIPPED.some((skipped) => `${path}/`.startsWith(skipped))) return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  return '(anonymous)';
}

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node)
  );
}

/** The functions of one file's text longer than `max` lines (from the line of its start to the line of its end). */
export function longFunctions(path: string, text: string, max = MAX_LINES): LongFunction[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node) && node.body !== undefined) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ where: `${path}:${first + 1}`, lines, name: functionName(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('short functions', () => {
  it(`no function of src/ (outside ${SKIPPED.join(', ')}) is longer than ${MAX_LINES} lines`, () => {
    const files = sourceFiles('src');
    expect(files.length).toBeGreaterThan(50);
    const long = files.flatMap((path) => longFunctions(path, readFileSync(join(ROOT, path), 'utf8')));
    expect(long.map((f) => `${f.where} (${f.lines} lines, ${f.name})`)).toEqual([]);
  });

  it('finds a long function, method, arrow function and function expression, and names where each starts', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `export function short() {\n${body(3)}\n}`,
      `export function declared() {\n${body(79)}\n}`,
      `class Box {\n  method() {\n${body(80)}\n  }\n}`,
      `export const arrow = () => {\n${body(81)}\n};`,
      `export const expressed = function () {\n${body(79)}\n};`,
    ].join('\n');
    expect(longFunctions('src/x.ts', text)).toEqual([
      { where: 'src/x.ts:6', lines: 81, name: 'declared' },
      { where: 'src/x.ts:88', lines: 82, name: 'method' },
      { where: 'src/x.ts:171', lines: 83, name: 'arrow' },
      { where: 'src/x.ts:254', lines: 81, name: 'expressed' },
    ]);
    expect(longFunctions('src/x.ts', `export function edge() {\n${body(78)}\n}`)).toEqual([]);
  });

  it('skips src/generated/ (written by the generator) and nothing else', () => {
    const files = sourceFiles('src');
    expect(files.some((f) => f.startsWith('src/generated/'))).toBe(false);
    expect(files).toContain('src/testing/server.ts');
    expect(files).toContain('src/core/transport.ts');
  });
});
