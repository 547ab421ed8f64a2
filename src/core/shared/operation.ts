/**
 * What the transport needs to know about one operation of `openapi.json`. The generated layer writes one
 * `Operation` per operation; the core reads nothing else from the document.
 */
export interface Operation {
  /** The `operationId`. */
  readonly id: string;
  /** The HTTP method. */
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path template, for example `/v1/tools/{tool}/execute`. */
  readonly path: string;
  /** The plane the path belongs to; it decides which keys and auth headers are accepted. */
  readonly plane: Plane;
  /** Which credentials the operation takes. */
  readonly auth: 'none' | 'bearer' | 'bearer-or-api-key';
  /**
   * The operation starts a run (openapi.json's `x-oz-idempotent`): its idempotency key (`x-trace-id`, sent on every
   * write) becomes the execution id, a repeat of the key answers 409, and a lost answer is recovered through the
   * execution record.
   */
  readonly startsRun: boolean;
  /** The operation answers on the four wires and takes `?format=`. */
  readonly wire: boolean;
  /** The request body may be sent as YAML. */
  readonly yamlBody: boolean;
  /**
   * `optional`: `stream: true` in the body answers SSE; `always`: always SSE; `chat`: OpenAI chunks. An operation
   * that streams carries its stream's reader too (`StreamingOperation`, call.ts).
   */
  readonly streaming: 'none' | 'optional' | 'always' | 'chat';
  /** A list route (`limit`, `cursor`, `next_cursor`). */
  readonly paged: boolean;
  /** Path parameters whose value may contain `/` (kept as is, each segment encoded). */
  readonly slashParams?: readonly string[];
  /** openapi.json marks the operation `deprecated`: its first use in a process logs a warning. */
  readonly deprecated?: boolean;
  /** Parameters openapi.json marks `deprecated`: the first call that sends one logs a warning. */
  readonly deprecatedParams?: readonly { readonly name: string; readonly in: 'path' | 'query' | 'header' }[];
}

/** The service's planes, as its Authentication section groups them. */
export type Plane = 'meta' | 'models' | 'execution' | 'companies' | 'mcp' | 'proxy';

/** The parts of one call that vary: path parameters, query parameters and the body. */
export interface RequestInput {
  /** Values of the path template's parameters, by name. */
  readonly path?: Readonly<Record<string, string>>;
  /** Query parameters; `undefined` and `null` values are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | null | undefined>>;
  /** The request body, sent as JSON (or YAML with `bodyFormat: 'yaml'`). */
  readonly body?: unknown;
  /**
   * An absolute URL that replaces the base URL and the path template, for an operation served at an address of
   * its own (the MCP server at `OZ_MCP_URL`). Query parameters are still added.
   */
  readonly url?: string;
}

/** A table of operations by `operationId`, typed key by key (the generated `OPERATIONS`). */
export type OperationsById<Ops extends readonly Operation[]> = { readonly [Op in Ops[number] as Op['id']]: Op };

/**
 * The table of `operations` by their `id`: the generated `OPERATIONS`, built from the per-operation constants
 * (each name written once, in its descriptor).
 */
export function operationsById<const Ops extends readonly Operation[]>(operations: Ops): OperationsById<Ops> {
  return Object.fromEntries(operations.map((op) => [op.id, op])) as OperationsById<Ops>;
}
