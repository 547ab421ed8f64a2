import { interpretedCheck } from '../contract/schemaInterpreter.js';
import type { SchemaCheck } from '../contract/schemaValidation.js';

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
  /** JSON Schema (2020-12) of the params: the params are validated against it (422 `invalid_params`). */
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
  /** JSON Schema (2020-12) of the agent's own fields, validated like a tool's. Default: `{user_request: string}`. */
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
  /** Card validation of the params (the card's `input_schema`), read once. */
  readonly check: SchemaCheck;
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
  /** Card validation of the input (the card's `input_schema`), read once. */
  readonly check: SchemaCheck;
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
  const inputSchema = cardSchema({ type: 'object', properties: {}, required, ...def.inputSchema }, required);
  return {
    name: def.name,
    description: def.description ?? `The ${def.name} tool.`,
    inputSchema,
    required,
    connection: def.connection ?? null,
    credential: def.credential ?? null,
    handler: def.handler,
    check: cardCheck(def.name, inputSchema),
  };
}

/**
 * The card's `input_schema`: the definition's schema (or the default) with the card's required fields among its
 * `required`, so the schema a client reads is the one the server validates against.
 */
function cardSchema(schema: Record<string, unknown>, required: readonly string[]): Record<string, unknown> {
  const own = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const all = [...new Set([...own, ...required])];
  if (all.length || 'required' in schema) schema.required = all;
  return schema;
}

/**
 * A card's schema made a check; one that cannot be used stops the definition with the reason. Its `$schema` and
 * `$id` are left out: every card is read as JSON Schema 2020-12, and two cards may carry the same `$id`.
 */
function cardCheck(name: string, schema: Record<string, unknown>): SchemaCheck {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  try {
    return interpretedCheck(rest);
  } catch (err) {
    throw new Error(`The input schema of ${name} is not a valid JSON Schema: ${(err as Error).message}`);
  }
}

/** A catalog agent from a definition. */
export function toCatalogAgent(def: AgentDefinition): CatalogAgent {
  const required = [...(def.required ?? ['user_request'])];
  const inputSchema = cardSchema(
    def.inputSchema
      ? { type: 'object', ...def.inputSchema }
      : { type: 'object', properties: { user_request: { type: 'string', description: 'What to ask the agent.' } } },
    required,
  );
  return {
    name: def.name,
    description: def.description ?? `The ${def.name} agent.`,
    inputSchema,
    required,
    streaming: def.streaming ?? true,
    handler: def.handler,
    tokens: def.tokens ?? null,
    check: cardCheck(def.name, inputSchema),
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
