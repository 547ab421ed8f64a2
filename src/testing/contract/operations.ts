import openapi from '../../../openapi.json' with { type: 'json' };
import type { Operation } from '../../core/shared/operation.js';
import { OPERATIONS, type OperationId } from '../../generated/operations.js';

/**
 * What the server needs to know about one operation: the generated descriptor (the SDK's own, read from
 * openapi.json by `npm run generate`: plane, auth, wire, streaming ...) plus what only the server reads.
 */
export interface OperationInfo extends Operation {
  readonly id: OperationId;
  /** The operation takes a request body. */
  readonly body: boolean;
  /** `x-oz-replay`: a non-run write whose 2xx answer is kept under its `x-trace-id` and replayed (see pipeline/steps/replay.ts). */
  readonly replay: boolean;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type PathItems = Record<string, Partial<Record<Method, { requestBody?: unknown; 'x-oz-replay'?: boolean }>>>;

/** openapi.json itself (served at `GET /v1/openapi.json`). */
export const OPENAPI_DOCUMENT: Readonly<Record<string, unknown>> = openapi as Record<string, unknown>;

/** The API version the server implements: `info.version` of openapi.json. */
export const API_VERSION: string = openapi.info.version;

/** Every operation of openapi.json as the server reads it: the generated `OPERATIONS` (the client's table), each with its `OperationInfo`. */
export const SERVER_OPERATIONS: readonly OperationInfo[] = Object.values(OPERATIONS).map((op: Operation): OperationInfo => {
  const raw = (openapi as unknown as { paths: PathItems }).paths[op.path]?.[op.method.toLowerCase() as Method];
  return {
    ...op,
    id: op.id as OperationId,
    body: raw?.requestBody !== undefined,
    replay: raw?.['x-oz-replay'] === true,
  };
});

/** Every operation of openapi.json by its operationId (the route table's `operationId` is one). */
export const SERVER_OPERATIONS_BY_ID = Object.fromEntries(SERVER_OPERATIONS.map((op) => [op.id, op])) as Readonly<Record<OperationId, OperationInfo>>;

/** Every operationId of openapi.json: faults and journal filters refuse any other. */
export const OPERATION_IDS: ReadonlySet<string> = new Set(SERVER_OPERATIONS.map((o) => o.id));

/** The operation an id names, read from a caller's string (a stub's, a scenario's); `undefined` for no operation. */
export function serverOperationNamed(id: string): OperationInfo | undefined {
  return OPERATION_IDS.has(id) ? SERVER_OPERATIONS_BY_ID[id as OperationId] : undefined;
}
