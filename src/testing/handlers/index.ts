import type { OperationHandlers } from '../pipeline/operationHandler.js';
import type { ServerExchange } from '../pipeline/exchange.js';
import type { ServerStep } from '../pipeline/serverStep.js';
import { executeAgent, getAgent, listAgents } from './agents.js';
import { linkConnection } from './connections.js';
import { searchDiscovery } from './discovery.js';
import { cancelExecution, followupExecution, getExecution, listExecutions } from './executions.js';
import { createCompanyItem, getCompanyItem, listCompanyItems } from './items.js';
import { mcpRequest } from './mcp.js';
import { getHealth, getOpenAPI } from './meta.js';
import { createChatCompletion, createEmbedding, getModel, listModels } from './models.js';
import { proxyRequest } from './proxy.js';
import { createSchedule, deleteSchedule, getSchedule, listSchedules, runSchedule } from './schedules.js';
import { executeTool, getTool, listTools } from './tools.js';
import { getTrace, listTraces } from './traces.js';
import {
  createWorkflow,
  deleteWorkflow,
  executeStoredWorkflow,
  executeStoredWorkflowStream,
  executeWorkflow,
  executeWorkflowStream,
  getWorkflow,
  listWorkflows,
} from './workflows.js';

/** Every operation's handler, by operationId. */
export const HANDLERS: OperationHandlers = {
  getHealth,
  getOpenAPI,
  listModels,
  getModel,
  createChatCompletion,
  createEmbedding,
  mcpRequest,
  listTools,
  getTool,
  executeTool,
  listAgents,
  getAgent,
  executeAgent,
  executeWorkflow,
  executeWorkflowStream,
  listWorkflows,
  createWorkflow,
  getWorkflow,
  deleteWorkflow,
  executeStoredWorkflow,
  executeStoredWorkflowStream,
  listSchedules,
  createSchedule,
  getSchedule,
  deleteSchedule,
  runSchedule,
  listExecutions,
  getExecution,
  cancelExecution,
  followupExecution,
  searchDiscovery,
  listTraces,
  getTrace,
  linkConnection,
  createCompanyItem,
  listCompanyItems,
  getCompanyItem,
  proxyGet: proxyRequest,
  proxyPost: proxyRequest,
  proxyPut: proxyRequest,
  proxyPatch: proxyRequest,
  proxyDelete: proxyRequest,
};

/**
 * Step, the last: the operation's handler (`HANDLERS`, by operationId) answers, with what the steps before it found
 * on `ctx` (the caller, the body, the wire).
 */
export const handler: ServerStep<ServerExchange> = (ctx) => HANDLERS[ctx.op.id](ctx.ctx);
