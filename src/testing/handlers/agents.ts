import type { Agent } from '../../generated/types.js';
import type { CatalogAgent } from '../state/catalog.js';
import type { RequestContext } from '../pipeline/requestContext.js';
import type { OperationHandler } from '../pipeline/operationHandler.js';
import { notFound } from '../contract/errors.js';
import { respondWithRun, respondWithStream, runFlags, takeTraceId } from './shared/executionFlow.js';
import { paginate } from './shared/pagination.js';
import { invalidParamsOf } from '../pipeline/steps/validate.js';
import { fenceAdmits } from './shared/toolFence.js';

/** The API's view of an agent. */
export function agentView(a: CatalogAgent): Agent {
  return { name: a.name, description: a.description, input_schema: a.inputSchema, streaming: a.streaming };
}

/** An agent of the catalog by name that the key's fence admits, or 404 `agent_not_found`. */
export function findAgent(ctx: RequestContext, name: string): CatalogAgent {
  const agent = ctx.parts.store.catalog.agents.get(name);
  if (!agent || !fenceAdmits(ctx, agent.name)) throw notFound('agent', `No agent named ${name}.`);
  return agent;
}

/** `GET /v1/agents`. */
export const listAgents: OperationHandler = (ctx) => {
  const rows = [...ctx.parts.store.catalog.agents.values()].filter((a) => fenceAdmits(ctx, a.name)).sort((a, b) => a.name.localeCompare(b.name));
  return ctx.reply(200, { kind: 'record', value: paginate(ctx, rows, (a) => a.name, agentView) });
};

/** `GET /v1/agents/{agent}`. */
export const getAgent: OperationHandler = (ctx) => ctx.reply(200, { kind: 'record', value: agentView(findAgent(ctx, ctx.params.agent!)) });

/** `POST /v1/execute`: the agent call door (`stream: true` answers events; `async: true` a pointer). */
export const executeAgent: OperationHandler = (ctx) => {
  const { agent: name, format: _format, stream: _stream, async: _async, ...input } = ctx.body;
  const flags = runFlags(ctx.body);
  if (!flags.stream) ctx.negotiate();
  const agent = findAgent(ctx, name as string);
  const traceId = takeTraceId(ctx);
  const problem = agent.check(input);
  if (problem) throw invalidParamsOf(ctx, problem);
  const run = {
    kind: 'agent' as const,
    target: agent.name,
    input,
    plan: { type: 'agent' as const, agent, input },
    async: flags.async,
    followupAgent: agent.name,
  };
  return flags.stream ? respondWithStream(ctx, run, traceId) : respondWithRun(ctx, run, traceId);
};
