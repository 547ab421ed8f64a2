import openapi from '../../openapi.json' with { type: 'json' };
import type { OperationId } from '../generated/operations.js';

/** The service's planes, as its Authentication section groups them. */
export type Plane = 'meta' | 'models' | 'execution' | 'companies' | 'mcp' | 'proxy';

/** What the server needs to know about one operation of openapi.json, read once at start-up. */
export interface OperationInfo {
  readonly id: OperationId;
  readonly method: string;
  /** The path template, for example `/v1/tools/{tool}/execute`. */
  readonly path: string;
  /** The same path in hono's syntax. */
  readonly routePath: string;
  readonly plane: Plane;
  readonly auth: 'none' | 'bearer' | 'bearer-or-api-key';
  /**
   * The operation negotiates a wire (json, yaml, markdown, text) for its answers and errors: the execution
   * planes and the companies plane. The others answer JSON (and streams).
   */
  readonly wire: boolean;
  /** The operation takes a request body. */
  readonly body: boolean;
  /** `x-oz-streaming` of the operation: `execute` (`stream: true`), `always`, `chat`, or `none`. */
  readonly streaming: 'none' | 'execute' | 'always' | 'chat';
  /** `x-oz-replay`: a non-run write whose 2xx answer is kept under its `x-trace-id` and replayed (see idempotency.ts). */
  readonly replay: boolean;
}

interface RawOperation {
  operationId: string;
  tags?: string[];
  security?: Array<Record<string, unknown>>;
  requestBody?: unknown;
  'x-oz-streaming'?: string;
  'x-oz-replay'?: boolean;
}

const PLANES: Readonly<Record<string, Plane>> = { meta: 'meta', models: 'models', companies: 'companies', mcp: 'mcp', proxy: 'proxy' };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** openapi.json itself (served at `GET /v1/openapi.json`). */
export const OPENAPI_DOCUMENT: Readonly<Record<string, unknown>> = openapi as Record<string, unknown>;

/** Every operation of openapi.json. */
export const OPERATIONS: readonly OperationInfo[] = compile();

/** Every operationId of openapi.json: faults and journal filters refuse any other. */
export const OPERATION_IDS: ReadonlySet<string> = new Set(OPERATIONS.map((o) => o.id));

function compile(): OperationInfo[] {
  const out: OperationInfo[] = [];
  const paths = (openapi as unknown as { paths: Record<string, Record<string, RawOperation | undefined>> }).paths;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const security = op.security ?? [];
      const schemes = new Set(security.flatMap((s) => Object.keys(s)));
      const plane = PLANES[op.tags?.[0] ?? ''] ?? 'execution';
      out.push({
        id: op.operationId as OperationId,
        method: method.toUpperCase(),
        path,
        // `{path}` of the proxy may hold slashes (x-oz-allow-slashes): hono's `{.+}` takes the rest.
        routePath: path.replace(/\{([^}]+)\}/g, ':$1').replace(/:path$/, ':path{.+}'),
        plane,
        auth: schemes.size === 0 ? 'none' : schemes.has('apiKeyHeader') ? 'bearer-or-api-key' : 'bearer',
        wire: plane === 'execution' || plane === 'companies',
        body: op.requestBody !== undefined,
        streaming: (op['x-oz-streaming'] as OperationInfo['streaming'] | undefined) ?? 'none',
        replay: op['x-oz-replay'] === true,
      });
    }
  }
  return out;
}
