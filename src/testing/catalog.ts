import { compileParamCheck, type ParamCheck } from './paramCheck.js';

/** What a tool's or agent's handler gets besides its input. */
export interface RunContext {
  /** The account the run belongs to. */
  readonly account: string;
  /** The execution's id. */
  readonly executionId: string;
  /** The server clock's time, in ms since the epoch. */
  now(): number;
  /** Waits `ms` of the server clock (so `server.clock.advance` can skip it). */
  sleep(ms: number): Promise<void>;
}

/** A tool of the catalog. */
export interface ToolDefinition {
  /** The tool's name (path segment of `POST /v1/tools/{tool}/execute`). */
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the params; `properties` with a `type` are checked (422 `invalid_params`). */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** Required param names: absent ones answer 422 with `missing`. Default: none. */
  readonly required?: readonly string[];
  /** The account connection the tool needs (424 `connection_required` until linked). Default: none. */
  readonly connection?: string | null;
  /**
   * A credential the tool needs: a provider whose key (`api_key`) or wallet (`wallet`) the account must link
   * first (424 `credential_required` with `connect` until then). Default: none.
   */
  readonly credential?: { readonly provider: string; readonly method: 'api_key' | 'wallet' } | null;
  /** Runs the tool: its answer is the result's markdown `content`. Throw an `OzMockError` to fail the run. */
  readonly handler: (params: Record<string, unknown>, context: RunContext) => string | Promise<string>;
}

/** An agent of the catalog. */
export interface AgentDefinition {
  /** The agent's name (`agent` of `POST /v1/execute`, a workflow task's `agent`, an MCP tool's name). */
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the agent's own fields. Default: `{user_request: string}`. */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** Required fields. Default: `['user_request']`. */
  readonly required?: readonly string[];
  /** Whether `stream: true` answers token events. Default `true`. */
  readonly streaming?: boolean;
  /** Runs the agent: its answer is the result's content (streamed word by word). */
  readonly handler: (input: Record<string, unknown>, context: RunContext) => string | Promise<string>;
  /** The token events a stream sends for an answer. Default: the answer word by word. */
  readonly tokens?: (answer: string, input: Record<string, unknown>) => readonly string[];
}

/** A step of a cloud building's pipeline: its office turns the previous output into the next. */
export interface PipelineStepDefinition {
  /** The step id (`plan`, `build`, ...). */
  readonly id: string;
  /**
   * The office's work: `input` is the previous step's `last_output` (the item's title and body for the first
   * step). Default: `"<step>: <input>"`. Throw to fail the attempt.
   */
  readonly handler?: (input: string, item: { readonly id: string; readonly title: string; readonly attempt: number }) => string | Promise<string>;
}

/** The normalized tool the server keeps. */
export interface CatalogTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly required: readonly string[];
  readonly connection: string | null;
  readonly credential: { readonly provider: string; readonly method: 'api_key' | 'wallet' } | null;
  readonly handler: ToolDefinition['handler'];
  /** Card validation of the params, compiled once. */
  readonly check: ParamCheck;
}

/** The normalized agent the server keeps. */
export interface CatalogAgent {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly required: readonly string[];
  readonly streaming: boolean;
  readonly handler: AgentDefinition['handler'];
  readonly tokens: AgentDefinition['tokens'] | null;
  /** Card validation of the input, compiled once. */
  readonly check: ParamCheck;
}

/** Tools, agents and pipeline step handlers: what holds functions, so it is shared by snapshots, not copied. */
export interface Catalog {
  tools: Map<string, CatalogTool>;
  agents: Map<string, CatalogAgent>;
  /** Step handlers by `account/campus/building/step`. */
  steps: Map<string, NonNullable<PipelineStepDefinition['handler']>>;
}

/** A catalog tool from a definition. */
export function toCatalogTool(def: ToolDefinition): CatalogTool {
  const required = [...(def.required ?? [])];
  const inputSchema = { type: 'object', properties: {}, required, ...def.inputSchema };
  return {
    name: def.name,
    description: def.description ?? `The ${def.name} tool.`,
    inputSchema,
    required,
    connection: def.connection ?? null,
    credential: def.credential ?? null,
    handler: def.handler,
    check: compileParamCheck(inputSchema, required),
  };
}

/** A catalog agent from a definition. */
export function toCatalogAgent(def: AgentDefinition): CatalogAgent {
  const required = [...(def.required ?? ['user_request'])];
  const inputSchema = def.inputSchema
    ? { type: 'object', ...def.inputSchema }
    : { type: 'object', properties: { user_request: { type: 'string', description: 'What to ask the agent.' } }, required };
  return {
    name: def.name,
    description: def.description ?? `The ${def.name} agent.`,
    inputSchema,
    required,
    streaming: def.streaming ?? true,
    handler: def.handler,
    tokens: def.tokens ?? null,
    check: compileParamCheck(inputSchema, required),
  };
}

/** The key of a step handler in {@link Catalog.steps}. */
export function stepKey(account: string, campus: string, building: string, step: string): string {
  return `${account}/${campus}/${building}/${step}`;
}

/** A copy of the catalog's maps (the definitions themselves are immutable). */
export function copyCatalog(catalog: Catalog): Catalog {
  return { tools: new Map(catalog.tools), agents: new Map(catalog.agents), steps: new Map(catalog.steps) };
}
