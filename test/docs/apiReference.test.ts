/**
 * api.md names every operation of openapi.json by the names the rest of the package gives it: the `Oz` method, the
 * `oz` command (its words as the command line reads them) and the standalone function `oz-sdk/funcs` exports.
 * (That api.md is exactly what `npm run generate` writes is `npm run check:generated`'s job, in `npm test`.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commandTree.js';
import * as funcs from '../../src/funcs/index.js';
import { OPERATION_ERROR_CODES } from '../../src/generated/operationErrors.js';
import { ROOT } from './repositoryFiles.js';

const apiMd = readFileSync(join(ROOT, 'api.md'), 'utf8');
const spec = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; 'x-oz-method'?: string }>>;
};
const operations = Object.values(spec.paths).flatMap((item) => Object.values(item).filter((op) => typeof op === 'object' && op.operationId !== undefined));

/** The section of api.md about one method: from its heading to the next. */
function section(method: string): string {
  const start = apiMd.indexOf(`### \`oz.${method}\`\n`);
  if (start === -1) return '';
  const end = apiMd.indexOf('\n### ', start + 1);
  return apiMd.slice(start, end === -1 ? undefined : end);
}

describe('api.md', () => {
  it('has a section for every operation of openapi.json', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.filter((op) => section(op['x-oz-method']!) === '').map((op) => op.operationId)).toEqual([]);
  });

  it("names each operation's command and standalone function as the command line and oz-sdk/funcs do", () => {
    for (const op of operations) {
      const text = section(op['x-oz-method']!);
      const command = COMMANDS.find((c) => c.kind === 'operation' && c.command.operationId === op.operationId)!;
      expect(text).toContain(`\`oz ${command.words.join(' ')}`);
      const name = text.match(/Standalone function \(`oz-sdk\/funcs`\): `(\w+)`/)?.[1];
      expect(name && typeof (funcs as Record<string, unknown>)[name], `${op.operationId}: ${name}`).toBe('function');
    }
  });

  it("lists each operation's error codes, as its result() types them", () => {
    for (const op of operations) {
      const errors = section(op['x-oz-method']!).match(/^Errors: (.*)$/m)?.[1] ?? '';
      const listed = [...errors.matchAll(/`(\w+)` \(\d{3}, `\w+`\)/g)].map((m) => m[1]);
      expect(listed, op.operationId!).toEqual([...OPERATION_ERROR_CODES[op.operationId as keyof typeof OPERATION_ERROR_CODES]]);
    }
  });
});
