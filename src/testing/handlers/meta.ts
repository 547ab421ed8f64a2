import type { OperationHandler } from '../dispatch.js';
import { OPENAPI_DOCUMENT } from '../operations.js';

const OPENAPI_TEXT = JSON.stringify(OPENAPI_DOCUMENT);

/** `GET /health`: liveness, no key. */
export const getHealth: OperationHandler = (ctx) => ctx.json(200, { status: 'ok' });

/** `GET /v1/openapi.json`: the machine-readable description, no key. */
export const getOpenAPI: OperationHandler = (ctx) => ctx.buffered(200, ctx.headers('application/json'), OPENAPI_TEXT);
