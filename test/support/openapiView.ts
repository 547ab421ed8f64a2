/**
 * Changes to openapi.json the embedded server needs and that are requested (not made: openapi.json is owned
 * elsewhere). The response validator checks answers against openapi.json WITH these changes applied, so the
 * list must stay exactly what was requested; each entry is skipped once openapi.json has it.
 */

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };

/** A requested change: a value at a path of the document. */
export interface PendingChange {
  readonly path: readonly string[];
  readonly value: unknown;
  readonly why: string;
}

export const PENDING_OPENAPI_CHANGES: readonly PendingChange[] = [
  {
    path: ['paths', '/v1/mcp', 'get'],
    why: 'The MCP Streamable HTTP transport probes GET for a server-initiated stream; the MCP spec has servers without one answer 405.',
    value: {
      operationId: 'mcpOpenStream',
      tags: ['mcp'],
      summary: 'The MCP server offers no server-initiated event stream: 405 (also at `{mcp_url}`).',
      'x-oz-internal': true,
      security: [],
      responses: {
        '405': {
          description: 'Method not allowed: send JSON-RPC messages with POST (`method_not_allowed`).',
          headers: {
            'x-request-id': { $ref: '#/components/headers/XRequestId' },
            'X-Error-Code': { $ref: '#/components/headers/XErrorCode' },
            Allow: { description: 'The methods the MCP URL takes: `POST, OPTIONS`.', schema: { type: 'string' } },
          },
          content: errorContent,
        },
      },
    },
  },
  {
    path: ['x-oz-preflight'],
    why: 'contract.md: every route answers an OPTIONS preflight from any origin with 204; openapi.json describes no OPTIONS answer.',
    value: {
      description: 'The answer to a CORS preflight (`OPTIONS`) on any route, from any origin.',
      status: 204,
      headers: {
        'x-request-id': { $ref: '#/components/headers/XRequestId' },
        'Access-Control-Allow-Origin': { schema: { type: 'string' } },
        'Access-Control-Allow-Methods': { schema: { type: 'string' } },
        'Access-Control-Allow-Headers': { schema: { type: 'string' } },
        'Access-Control-Expose-Headers': { schema: { type: 'string' } },
        'Access-Control-Max-Age': { schema: { type: 'integer' } },
      },
    },
  },
];

/** The document with the pending changes applied where it does not have them yet. */
export function withPendingChanges<T extends object>(doc: T): T {
  const copy = structuredClone(doc) as Record<string, unknown>;
  for (const change of PENDING_OPENAPI_CHANGES) {
    let node: Record<string, unknown> = copy;
    for (const key of change.path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    const last = change.path[change.path.length - 1]!;
    if (node[last] === undefined) node[last] = change.value;
  }
  return copy as T;
}
