/**
 * The comments of a source file: read with TypeScript's own scanner for code (every comment range before and after
 * each node, JSDoc included), and the `#` lines of a shell script.
 */
import ts from 'typescript';

export interface Comment {
  readonly text: string;
  readonly line: number;
}

const SCRIPT_KINDS: Readonly<Record<string, ts.ScriptKind>> = {
  ts: ts.ScriptKind.TS,
  mts: ts.ScriptKind.TS,
  cts: ts.ScriptKind.TS,
  js: ts.ScriptKind.JS,
  mjs: ts.ScriptKind.JS,
  cjs: ts.ScriptKind.JS,
};

/** Whether `commentsOf` reads this file's comments. */
export const hasComments = (path: string): boolean => path.endsWith('.sh') || Object.hasOwn(SCRIPT_KINDS, path.slice(path.lastIndexOf('.') + 1));

export function commentsOf(path: string, source: string): Comment[] {
  if (path.endsWith('.sh')) {
    return source.split('\n').flatMap((text, i) => (/^\s*#/.test(text) ? [{ text, line: i + 1 }] : []));
  }
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false, SCRIPT_KINDS[path.slice(path.lastIndexOf('.') + 1)]);
  const seen = new Map<number, Comment>();
  const add = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (!seen.has(range.pos)) seen.set(range.pos, { text: source.slice(range.pos, range.end), line: file.getLineAndCharacterOfPosition(range.pos).line + 1 });
    }
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(source, node.pos));
    add(ts.getTrailingCommentRanges(source, node.end));
    ts.forEachChild(node, visit);
  };
  visit(file);
  add(ts.getLeadingCommentRanges(source, file.endOfFileToken.pos));
  return [...seen.values()];
}
