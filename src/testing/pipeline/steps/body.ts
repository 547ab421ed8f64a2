import { invalidJson, OzMockError } from '../../contract/errors.js';
import { checkNesting } from '../../contract/nesting.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';
import { isPlainObject } from '../../support/plainObject.js';
import { isYamlType, mediaType } from '../../wire/wire.js';
import { parseYaml } from '../../wire/yamlWire.js';

/**
 * Parses a request body: YAML when the Content-Type names YAML, JSON when it names JSON, and JSON then YAML
 * when it names neither (a bare YAML body is accepted). Empty is `{}`. A body that does not parse, or nests
 * deeper than 128 levels (`checkNesting`), answers 400 `invalid_json`; its value may be of any JSON type (see
 * {@link requireObjectBody}).
 */
export function parseRequestBody(raw: string, contentType: string | null, jsonOnly: boolean): unknown {
  if (raw === '' || !/\S/.test(raw)) return {};
  const type = mediaType(contentType);
  if (!jsonOnly && isYamlType(contentType)) return loadYaml(raw, 'YAML');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    if (jsonOnly || type === 'application/json' || type.endsWith('+json')) throw invalidJson('JSON', (err as Error).message);
    return loadYaml(raw, 'JSON or YAML');
  }
  checkNesting(value, BODY);
  return value;
}

const BODY = 'The request body';

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'string' ? 'a string' : typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'a boolean' : typeof value;
}

/** The body as an object; any other value (an array, a string, a number) answers 400 `invalid_json` saying so. */
export function requireObjectBody(value: unknown): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  throw new OzMockError(400, 'invalid_json', `The request body must be an object ({...}), not ${kindOf(value)}.`);
}

function loadYaml(raw: string, syntax: 'YAML' | 'JSON or YAML'): unknown {
  try {
    return parseYaml(raw, 'refuse', BODY);
  } catch (err) {
    if (err instanceof OzMockError) throw err;
    throw invalidJson(syntax, (err as Error).message.split('\n')[0] ?? 'bad YAML');
  }
}

/**
 * Step: the body, parsed. MCP's JSON-RPC judges its own messages (a batch, a response, a bad id): its handler
 * answers them; elsewhere an operation that takes a body takes a JSON or YAML object.
 */
export const body: ServerStep<ServerExchange> = (ctx, next) => {
  const { op } = ctx;
  const request = ctx.ctx;
  if (op.plane === 'mcp') {
    request.message = parseRequestBody(request.rawBody ?? '', request.contentType, true);
    if (isPlainObject(request.message)) request.body = request.message;
  } else if (op.body) {
    request.body = requireObjectBody(parseRequestBody(request.rawBody ?? '', request.contentType, !op.wire));
  }
  return next();
};
