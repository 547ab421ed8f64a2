// Writes src/generated/errors.ts from openapi.json's `ErrorCode`: one class per code under its status class, and the
// code-to-class table the transport reads (installed into src/core/errors/errors.ts with `registerErrorCodes`).
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
    return { code: branch.const, status, description: branch.description ?? '', name, base: statusClassOf(status), fromCore: coreClasses.has(name), carries: branch['x-oz-carries'] ?? [] };
  });
}

const docLines = (lines, indent = '') => `${indent}/**\n${lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join('\n')}\n${indent} */\n`;

export function renderErrors(codes) {
  const generated = codes.filter((c) => !c.fromCore);
  const fromCore = codes.filter((c) => c.fromCore).map((c) => c.name);
  const bases = [...new Set(generated.map((c) => c.base))];
  const needsConnect = generated.some((c) => c.carries.some((f) => CARRIED[f].type === 'ConnectInfo'));
  const coreImports = [...bases, ...fromCore, 'registerErrorCodes'].sort();
  const typeImports = ['ErrorBody', 'ErrorCodeEntry', ...(needsConnect ? ['ConnectInfo'] : [])].sort();
  let out = `import { ${coreImports.join(', ')}, ${typeImports.map((t) => `type ${t}`).join(', ')} } from '../core/errors/errors.js';\n\n`;
  if (fromCore.length) out += `export { ${fromCore.join(', ')} };\n\n`;
  for (const c of generated) {
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
    out += '}\n\n';
  }
  out += docLines(['Every error code of openapi.json\'s `ErrorCode`: the status it is answered with and the class it is thrown as.']);
  out += 'export const ERROR_CODES = {\n';
  for (const c of codes) out += `  ${c.code}: { status: ${c.status}, class: ${c.name} },\n`;
  out += '} as const satisfies Record<string, ErrorCodeEntry>;\n\n';
  out += docLines(['An error code of openapi.json.']);
  out += 'export type ErrorCodeName = keyof typeof ERROR_CODES;\n\n';
  out += '// The transport (src/core) reads the table from here: src/core imports nothing generated.\n';
  out += 'registerErrorCodes(ERROR_CODES);\n';
  return out;
}
