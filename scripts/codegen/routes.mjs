// The route table of openapi.json (src/generated/routes.ts) and the one compiler of path templates it is built
// with (src/generated/pathTemplate.ts): every reader of a method and a path (the embedded server's router, the raw
// client's guard, the recorder, parity) matches against this table instead of compiling templates of its own.

// The compiler is written out as it stands: it is code, not data, and src/generated/ is the layer every reader may
// import (the core may not import the server, the server may not import the client).
const PATH_TEMPLATE = `/** A path template of openapi.json (\`/v1/tools/{tool}/execute\`), compiled once. */
export interface PathTemplate {
  /** The template as openapi.json writes it. */
  readonly template: string;
  /** The names of its parameters, in the order they stand. */
  readonly params: readonly string[];
  /** The names of the parameters that may hold slashes (\`x-oz-allow-slashes\`). */
  readonly slashParams: readonly string[];
  /** Matches a whole path; group \`i + 1\` is parameter \`i\`, as the path spells it (not decoded). */
  readonly pattern: RegExp;
}

const SEGMENTS = /(\\{[^}]+\\})/;
const PARAMETER = /^\\{([^}]+)\\}$/;
const SPECIAL = /[.*+?^\${}()|[\\]\\\\]/g;

/**
 * Compiles a path template: the one place of the sources that parses one. A parameter matches one segment
 * (\`[^/]+\`), or the rest of the path when it may hold slashes.
 *
 * @throws TypeError when the template does not start with \`/\` or names a parameter twice.
 */
export function compilePathTemplate(template: string, slashParams: readonly string[] = []): PathTemplate {
  if (!template.startsWith('/')) throw new TypeError(\`A path template starts with /: \${JSON.stringify(template)}\`);
  const params: string[] = [];
  const source = template
    .split(SEGMENTS)
    .map((part) => {
      const name = PARAMETER.exec(part)?.[1];
      if (name === undefined) return part.replace(SPECIAL, '\\\\$&');
      if (params.includes(name)) throw new TypeError(\`The path template \${template} names {\${name}} twice\`);
      params.push(name);
      return slashParams.includes(name) ? '(.+)' : '([^/]+)';
    })
    .join('');
  return { template, params, slashParams, pattern: new RegExp(\`^\${source}$\`) };
}

/** The parameters of \`path\` by name, as it spells them (not decoded), or \`null\` when the template does not match it. */
export function matchPathTemplate(compiled: PathTemplate, path: string): Record<string, string> | null {
  const match = compiled.pattern.exec(path);
  if (match === null) return null;
  const values: Record<string, string> = {};
  compiled.params.forEach((name, i) => {
    values[name] = match[i + 1]!;
  });
  return values;
}

/** The template with each parameter replaced by \`valueOf(name)\` (which encodes it as the caller needs). */
export function fillPathTemplate(compiled: PathTemplate, valueOf: (name: string) => string): string {
  return compiled.template.split(SEGMENTS).map((part) => {
    const name = PARAMETER.exec(part)?.[1];
    return name === undefined ? part : valueOf(name);
  }).join('');
}
`;

const FIND_ROUTE = `
/** Every route by its operation's \`operationId\`. */
export const ROUTE_BY_ID = Object.freeze(Object.fromEntries(ROUTES.map((r) => [r.operationId, r]))) as Readonly<Record<OperationId, OperationRoute>>;
/** A route that a request's method and path name, with the path's parameters as it spells them (not decoded). */
export interface RouteMatch {
  readonly route: OperationRoute;
  readonly params: Readonly<Record<string, string>>;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

// A path without parameters is found by one lookup (they come first in the table's order anyway); the others
// are tried in order among the routes of the request's method.
const LITERAL = new Map<string, OperationRoute>();
const WITH_PARAMS = new Map<string, OperationRoute[]>();
for (const candidate of ROUTES) {
  if (candidate.path.params.length === 0) LITERAL.set(\`\${candidate.method} \${candidate.path.template}\`, candidate);
  else WITH_PARAMS.set(candidate.method, [...(WITH_PARAMS.get(candidate.method) ?? []), candidate]);
}

/** The route of \`method\` (upper case) and \`path\` (without the query), or \`null\` when no operation has them. */
export function findRoute(method: string, path: string): RouteMatch | null {
  const literal = LITERAL.get(\`\${method} \${path}\`);
  if (literal !== undefined) return { route: literal, params: NO_PARAMS };
  for (const candidate of WITH_PARAMS.get(method) ?? []) {
    const params = matchPathTemplate(candidate.path, path);
    if (params !== null) return { route: candidate, params };
  }
  return null;
}

/** Whether an operation has \`path\`, by any method (what a CORS preflight asks). */
export function isRoutePath(path: string): boolean {
  return ROUTES.some((candidate) => candidate.path.pattern.test(path));
}
`;

/** src/generated/pathTemplate.ts. */
export function renderPathTemplate() {
  return PATH_TEMPLATE;
}

/** The order routes are tried in: fewer parameters first, so `/v1/workflows/execute` wins over `/v1/workflows/{name}`. */
function byLiteralFirst(model) {
  return model.operations
    .map((op, i) => ({ op, i }))
    .sort((a, b) => a.op.pathParams.length - b.op.pathParams.length || a.i - b.i)
    .map(({ op }) => op);
}

/** src/generated/routes.ts: one route per operation, literal paths first. */
export function renderRoutes(model) {
  let out = "import type { OperationId } from './operations.js';\n";
  out += "import { compilePathTemplate, matchPathTemplate, type PathTemplate } from './pathTemplate.js';\n\n";
  out += `/** The methods openapi.json's operations use. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One operation of openapi.json as a route: its method, its path template compiled, its \`operationId\`. */
export interface OperationRoute {
  readonly operationId: OperationId;
  readonly method: RouteMethod;
  /** The path template, its parameters' names and its matcher. */
  readonly path: PathTemplate;
}

const route = (operationId: OperationId, method: RouteMethod, template: string, slashParams?: readonly string[]): OperationRoute =>
  Object.freeze({ operationId, method, path: compilePathTemplate(template, slashParams) });

/** Every operation of openapi.json as a route, in the order a path is tried: fewer parameters first. */
export const ROUTES: readonly OperationRoute[] = Object.freeze([\n`;
  for (const op of byLiteralFirst(model)) {
    const slash = op.pathParams.filter((p) => p.slashes).map((p) => `'${p.name}'`);
    out += `  route('${op.id}', '${op.method}', '${op.path}'${slash.length ? `, [${slash.join(', ')}]` : ''}),\n`;
  }
  out += ']);\n' + FIND_ROUTE;
  return out;
}
