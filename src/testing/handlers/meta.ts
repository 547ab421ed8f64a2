import type { OperationHandler } from '../pipeline/operationHandler.js';
import { documentText } from '../contract/documentContent.js';

/** `GET /health`: liveness, no key. */
export const getHealth: OperationHandler = (ctx) => ctx.json(200, { status: 'ok' });

/** `GET /v1/openapi.json`: the machine-readable description, no key; `content=all` (checked by openapi.json) merges the alternative forms. */
export const getOpenAPI: OperationHandler = (ctx) =>
  ctx.buffered(200, ctx.headers('application/json'), documentText(ctx.query('content') === 'all' ? 'all' : 'primary'));
