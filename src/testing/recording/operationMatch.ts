import { OPERATIONS, type OperationInfo } from '../contract/operations.js';

/** An operation of openapi.json a request names, with its path parameters. */
export interface MatchedOperation {
  readonly op: OperationInfo;
  readonly path: Readonly<Record<string, string>>;
}

interface Route {
  readonly op: OperationInfo;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Fewer parameters first, so a literal segment (`/v1/workflows/execute`) wins over a parameter (`{name}`).
const ROUTES: readonly Route[] = OPERATIONS.map((op): Route => {
  const names: string[] = [];
  const source = op.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return escape(part);
      names.push(name);
      return op.slashParams?.includes(name) ? '(.+)' : '([^/]+)';
    })
    .join('');
  return { op, pattern: new RegExp(`^${source}$`), names };
}).sort((a, b) => a.names.length - b.names.length);

/** The operation a method and path (without the query) name, or `null` (no operation of openapi.json). */
export function matchOperation(method: string, path: string): MatchedOperation | null {
  const upper = method.toUpperCase();
  for (const route of ROUTES) {
    if (route.op.method !== upper) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => {
      const raw = m[i + 1]!;
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw;
      }
    });
    return { op: route.op, path: params };
  }
  return null;
}
