// Writes src/generated/errors.ts from openapi.json's `ErrorCode`: one class per code under its status class, and the
// code-to-class table the transport reads (the layer above installs it with `registerErrorCodes`: no side effect at
// load, so that a bundle of one standalone function keeps only its operation's classes).
import { pascal } from './model.mjs';

// How a field named in `x-oz-carries` is typed on the class, and its value when an answer's wire left it out.
const CARRIED = {
  missing: { type: 'string[]', fallback: '[]', doc: 'Names of the absent fields (empty when the answer named none), on every wire.' },
  connect: { type: 'ConnectInfo', doc: 'Where the missing connection or credential is made, on every wire.' },
};

/** The status class a code's class extends: `Http<status>Error`, or `Http5xxError` for any status of 500 and above. */
export const statusClassOf = (status) => (status >= 500 ? 'Http5xxError' : `Http${status}Error`);

/** A code's class name: `x-oz-class`, else the code in PascalCase + `Error` (`internal_error` is `InternalError`). */
export const codeClassOf = (branch) => branch['x-oz-class'] ?? (branch.const.endsWith('_error') ? pascal(branch.const) : `${pascal(branch.const)}Error`);

/**
 * The error codes of openapi.json, each with its status, class, base class and carried fields. `coreClasses`:
 * the classes src/core/errors/errors.ts exports; a code whose class is among them is imported, not generated.
 */
export function errorCodesOf(doc, coreClasses) {
  const branches = doc.components.schemas.ErrorCode?.oneOf;
  if (!Array.isArray(branches) || branches.length === 0) throw new Error('openapi.json: ErrorCode needs a oneOf of const branches');
  const seen = new Set();
  return branches.map((branch) => {
    const status = branch['x-oz-status'];
    if (typeof branch.const !== 'string' || !Number.isInteger(status) || status < 400 || status > 599) {
      throw new Error(`ErrorCode: every branch needs a const code and an x-oz-status of 400 to 599 (${JSON.stringify(branch)})`);
    }
    const name = codeClassOf(branch);
    if (seen.has(name)) throw new Error(`ErrorCode: two codes would make the class ${name}`);
    seen.add(name);
    for (const field of branch['x-oz-carries'] ?? []) if (!CARRIED[field]) throw new Error(`ErrorCode ${branch.const}: unknown x-oz-carries field ${field}`);
    return {
      code: branch.const,
      status,
      description: branch.description ?? '',
      name,
      base: statusClassOf(status),
      fromCore: coreClasses.has(name),
      carries: branch['x-oz-carries'] ?? [],
    };
  });
}

const docLines = (lines, indent = '') => `${indent}/**\n${lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join('\n')}\n${indent} */\n`;

/** The module of a generated code class, under src/generated/errors/ (`ToolNotFoundError` in toolNotFoundError.ts). */
export const errorClassFile = (name) => name[0].toLowerCase() + name.slice(1);

/**
 * One file per generated code class (src/generated/errors/<class>.ts): a program imports the classes it names,
 * module by module; `OzCore` loads the whole table with its first error answer, run or stream.
 */
export function renderErrorClasses(codes) {
  const files = new Map();
  for (const c of codes.filter((code) => !code.fromCore)) {
    const needsConnect = c.carries.some((f) => CARRIED[f].type === 'ConnectInfo');
    const needsBody = c.carries.some((f) => CARRIED[f].fallback);
    const types = [...(needsConnect ? ['ConnectInfo'] : []), ...(needsBody ? ['ErrorBody'] : [])];
    let out = `import { ${c.base} } from '../../core/errors/apiErrors.js';\n`;
    if (types.length) out += `import type { ${types.join(', ')} } from '../../core/errors/errorShape.js';\n`;
    out += '\n';
    out += docLines([`${c.status} \`${c.code}\`: ${c.description.replace(/\*\//g, '*\\/')}`]);
    out += `export class ${c.name} extends ${c.base} {\n`;
    out += `  override name = '${c.name}';\n`;
    out += `  declare readonly code: '${c.code}';\n`;
    const fallbacks = [];
    for (const field of c.carries) {
      const spec = CARRIED[field];
      out += docLines([spec.doc], '  ');
      if (spec.fallback) {
        out += `  override readonly ${field}: ${spec.type};\n`;
        fallbacks.push(`    this.${field} = error?.${field} ?? ${spec.fallback};\n`);
      } else {
        out += `  declare readonly ${field}: ${spec.type};\n`;
      }
    }
    if (fallbacks.length) {
      out += '\n  constructor(status: number, headers: Headers, error: ErrorBody | undefined, message?: string) {\n';
      out += '    super(status, headers, error, message);\n';
      out += fallbacks.join('');
      out += '  }\n';
    }
    out += '}\n';
    files.set(`errors/${errorClassFile(c.name)}.ts`, out);
  }
  return files;
}

/** src/generated/errors.ts: every code class (re-exported from its own module) and the code-to-class table. */
export function renderErrors(codes) {
  const generated = codes.filter((c) => !c.fromCore);
  const fromCore = codes.filter((c) => c.fromCore).map((c) => c.name);
  let out = `import { ${[...fromCore, 'type ErrorCodeEntry'].join(', ')} } from '../core/errors/apiErrors.js';\n`;
  for (const c of generated) out += `import { ${c.name} } from './errors/${errorClassFile(c.name)}.js';\n`;
  out += '\n';
  out += `export { ${[...fromCore, ...generated.map((c) => c.name)].join(', ')} };\n\n`;
  out += docLines(["Every error code of openapi.json's `ErrorCode`: the status it is answered with and the class it is thrown as."]);
  out += 'export const ERROR_CODES = {\n';
  for (const c of codes) out += `  ${c.code}: { status: ${c.status}, class: ${c.name} },\n`;
  out += '} as const satisfies Record<string, ErrorCodeEntry>;\n\n';
  out += docLines(['An error code of openapi.json.']);
  out += 'export type ErrorCodeName = keyof typeof ERROR_CODES;\n';
  return out;
}
