import { OzError } from '../errors/errors.js';

/**
 * The heavy optional parts of the SDK, the only code loaded on first use rather than with the client: a program
 * that never asks for one carries none of it in its first bundle chunk and never parses it at start.
 */
export type OptionalPart =
  | 'the YAML reader and writer'
  | 'the response validators'
  | 'OpenTelemetry spans'
  | 'sign-in'
  | 'the profile file'
  | 'the raw client'
  | "the control plane's MCP server"
  | "the control plane's MCP server on stdio";

const LOADING = new Map<OptionalPart, Promise<unknown>>();

/**
 * Loads `part` on its first use, once per process. `load` is `() => import('...')` with a literal specifier: the
 * ESM build keeps it (a chunk of its own), the CommonJS build turns it into a `require` (tsup.config.ts), which
 * every CommonJS host runs (jest's defaults cannot run an `import()`). A part that fails to load is an `OzError`
 * naming it (its `cause` the loader's error), never the error of the call that needed it; the next use tries again.
 */
export function loadPart<T>(part: OptionalPart, load: () => Promise<T>): Promise<T> {
  let loading = LOADING.get(part) as Promise<T> | undefined;
  if (loading === undefined) {
    loading = load().catch((cause: unknown) => {
      LOADING.delete(part);
      throw new OzError(`The SDK could not load ${part}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    });
    LOADING.set(part, loading);
  }
  return loading;
}
