import type { AgentDefinition, RunContext, ToolDefinition } from '../catalog.js';
import { ownValue } from '../plainObject.js';
import { OzMockError } from '../errors.js';
import { tokenize } from '../tokenize.js';
import type { FixtureAgent, FixtureBehaviour, FixtureCallable, FixtureError, FixtureTool } from './fixtureFormat.js';

/**
 * The declaration behind each handler made here: a declared tool or agent is plain data, so the state export
 * writes it back out (a handler written in code cannot be).
 */
const DECLARATIONS = new WeakMap<object, FixtureTool | FixtureAgent>();

/** The declaration a catalog handler was made from, if it was declared. */
export function declarationOf(handler: object): FixtureTool | FixtureAgent | undefined {
  return DECLARATIONS.get(handler);
}

function lookup(input: unknown, path: string): unknown {
  let v: unknown = input;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = ownValue(v as Record<string, unknown>, part);
  }
  return v;
}

/** Fills `{{field}}` and `{{a.b}}` with the input's values (objects as JSON; absent fields as nothing). */
export function fillTemplate(template: string, input: Record<string, unknown>): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_$.-]+)\s*\}\}/g, (_, path: string) => {
    const v = lookup(input, path);
    if (v === undefined || v === null) return '';
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The behaviour for an input: the first case whose `when` fields all equal the input's, else the top level. */
function pick(decl: FixtureCallable, input: Record<string, unknown>): FixtureBehaviour {
  for (const c of decl.cases ?? []) {
    if (Object.entries(c.when).every(([k, v]) => sameValue(lookup(input, k), v))) return c;
  }
  return decl;
}

function errorOf(e: FixtureError, input: Record<string, unknown>): OzMockError {
  const { status, code, message, missing, hint, contract, connect, retry_after, ...extra } = e;
  return new OzMockError(status, code, fillTemplate(message ?? code, input), {
    ...(missing ? { missing } : {}),
    ...(hint !== undefined ? { hint: fillTemplate(hint, input) } : {}),
    ...(contract !== undefined ? { contract } : {}),
    ...(connect ? { connect } : {}),
    ...(retry_after !== undefined ? { retryAfter: retry_after } : {}),
    ...(Object.keys(extra).length ? { extra } : {}),
  });
}

function answerOf(b: FixtureBehaviour, input: Record<string, unknown>, name: string): string {
  if (b.answer !== undefined) return fillTemplate(b.answer, input);
  if (b.tokens) return b.tokens.map((t) => fillTemplate(t, input)).join('');
  throw new OzMockError(422, 'invalid_params', `No case of ${name} matches this input.`);
}

function handlerOf(decl: FixtureCallable): (input: Record<string, unknown>, context: RunContext) => string | Promise<string> {
  const settle = (b: FixtureBehaviour, input: Record<string, unknown>): string => {
    if (b.error) throw errorOf(b.error, input);
    return answerOf(b, input, decl.name);
  };
  return (input, context) => {
    const b = pick(decl, input);
    if (!b.delay_ms) return settle(b, input);
    return context.sleep(b.delay_ms).then(() => settle(b, input));
  };
}

/** What a declared tool and agent have in common, as a catalog definition. */
function definitionOf(decl: FixtureCallable) {
  const handler = handlerOf(decl);
  DECLARATIONS.set(handler, decl as FixtureTool | FixtureAgent);
  return {
    name: decl.name,
    ...(decl.description !== undefined ? { description: decl.description } : {}),
    ...(decl.input_schema ? { inputSchema: decl.input_schema } : {}),
    ...(decl.required ? { required: decl.required } : {}),
    handler,
  };
}

/** A catalog tool from its declaration. */
export function declaredTool(decl: FixtureTool): ToolDefinition {
  return { ...definitionOf(decl), connection: decl.needs_connection ?? null };
}

/** A catalog agent from its declaration: a stream sends its `tokens` as given (else the answer word by word). */
export function declaredAgent(decl: FixtureAgent): AgentDefinition {
  return {
    ...definitionOf(decl),
    ...(decl.streaming !== undefined ? { streaming: decl.streaming } : {}),
    tokens: (answer, input) => {
      const b = pick(decl, input);
      return b.tokens && b.answer === undefined ? b.tokens.map((t) => fillTemplate(t, input)) : tokenize(answer);
    },
  };
}
