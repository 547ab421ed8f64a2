import type { Tool } from '../../generated/types.js';
import type { CatalogTool } from '../state/catalog.js';
import type { RequestContext } from '../pipeline/requestContext.js';
import type { OperationHandler } from '../pipeline/operationHandler.js';
import { notFound } from '../contract/errors.js';
import { respondWithRun, takeTraceId } from './shared/executionFlow.js';
import { paginate } from './shared/pagination.js';
import { invalidParamsOf } from '../pipeline/steps/validate.js';
import { fenceAdmits } from './shared/toolFence.js';
import { requireToolLinks } from '../state/toolLinks.js';

/** The API's view of a tool: its card. */
export function toolView(t: CatalogTool): Tool {
  return { name: t.name, description: t.description, input_schema: t.inputSchema, required: [...t.required], connection: t.connection };
}

/** A tool of the catalog by name that the key's fence admits, or 404 `tool_not_found`. */
export function findTool(ctx: RequestContext, name: string): CatalogTool {
  const tool = ctx.parts.store.catalog.tools.get(name);
  if (!tool || !fenceAdmits(ctx, tool.name)) throw notFound('tool', `No tool named ${name}.`);
  return tool;
}

const CONTROL_FIELDS = new Set(['format', 'async', 'params']);

/** The tool fields of an execute body (checked against openapi.json already): inside `params`, or at the top level. */
export function toolParams(body: Record<string, unknown>): Record<string, unknown> {
  if (body.params !== undefined) return body.params as Record<string, unknown>;
  const params: Record<string, unknown> = {};
  for (const key in body) if (!CONTROL_FIELDS.has(key)) params[key] = body[key];
  return params;
}

/** `GET /v1/tools`. */
export const listTools: OperationHandler = (ctx) => {
  const rows = [...ctx.parts.store.catalog.tools.values()].filter((t) => fenceAdmits(ctx, t.name)).sort((a, b) => a.name.localeCompare(b.name));
  return ctx.reply(200, { kind: 'record', value: paginate(ctx, rows, (t) => t.name, toolView) });
};

/** `GET /v1/tools/{tool}`: the card. */
export const getTool: OperationHandler = (ctx) => ctx.reply(200, { kind: 'record', value: toolView(findTool(ctx, ctx.params.tool!)) });

/** `POST /v1/tools/{tool}/execute`. */
export const executeTool: OperationHandler = (ctx) => {
  const tool = findTool(ctx, ctx.params.tool!);
  const params = toolParams(ctx.body);
  const traceId = takeTraceId(ctx);
  const problem = tool.check(params);
  if (problem) throw invalidParamsOf(ctx, problem);
  requireToolLinks(ctx.account, tool);
  return respondWithRun(
    ctx,
    { kind: 'tool', target: tool.name, input: params, plan: { type: 'tool', tool, params }, async: ctx.body.async === true, followupAgent: null },
    traceId,
  );
};
