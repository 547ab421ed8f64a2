import type { OperationHandler } from '../dispatch.js';
import { OzMockError } from '../errors.js';
import { OPERATIONS } from '../operations.js';
import { executeAgent, getAgent, listAgents } from './agents.js';
import { linkConnection } from './connections.js';
import { searchDiscovery } from './discovery.js';
import { cancelExecution, followupExecution, getExecution, listExecutions } from './executions.js';
import { createCompanyItem, getCompanyItem, listCompanyItems } from './items.js';
import { getHealth, getOpenAPI } from './meta.js';
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

const notYet: OperationHandler = (ctx) => {
  throw new OzMockError(500, 'internal_error', `${ctx.op?.id ?? 'this route'} is not served yet.`);
};

/** Every operation's handler, by operationId. */
export const HANDLERS: Readonly<Record<string, OperationHandler>> = {
  ...Object.fromEntries(OPERATIONS.map((op) => [op.id, notYet])),
  getHealth,
  getOpenAPI,
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
