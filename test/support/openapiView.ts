/**
 * The validator's view of openapi.json. Answers that are not operations are described in openapi.json as
 * extensions: the CORS preflight (root `x-oz-preflight`, read as is) and the methods an MCP URL refuses
 * (`x-oz-not-allowed` on `/v1/mcp`: GET answers 405, as the MCP transport expects). This turns the latter into
 * operations the validator can look up, so their answers are checked like every other. The alternative forms of
 * answers (`x-oz-alternative-content`) are merged into `content` the way the server serves `?content=all`.
 */
import { withAllContent } from '../../src/testing/contract/documentContent.js';

type Json = Record<string, unknown>;

interface NotAllowed {
  readonly methods: readonly string[];
  readonly response: Json & { status: number };
}

/** The document with every answer's forms in `content` and each path's `x-oz-not-allowed` methods added as operations (for validation only). */
export function validationView<T extends object>(doc: T): T {
  const copy = structuredClone(withAllContent(doc as Record<string, unknown>)) as { paths: Record<string, Record<string, unknown>> };
  for (const [path, item] of Object.entries(copy.paths)) {
    const refused = item['x-oz-not-allowed'] as NotAllowed | undefined;
    if (!refused) continue;
    const { status, ...response } = refused.response;
    for (const method of refused.methods) {
      item[method.toLowerCase()] = {
        operationId: `${method.toLowerCase()}NotAllowed:${path}`,
        security: [],
        responses: { [String(status)]: response },
      };
    }
  }
  return copy as T;
}
