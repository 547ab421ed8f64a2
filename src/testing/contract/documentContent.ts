import { OPENAPI_DOCUMENT } from './operations.js';

type Json = Record<string, unknown>;

/**
 * The extension of openapi.json that lists the other forms of an answer (markdown, text, a stream beside JSON),
 * kept out of `content` so that generators type the answer as its JSON schema (see info.description).
 */
const ALTERNATIVES = 'x-oz-alternative-content';

/** A response object with its alternatives merged into `content`, or the same object when it has none. */
function merged(response: Json): Json {
  const alternatives = response[ALTERNATIVES] as Json | undefined;
  if (alternatives === undefined) return response;
  const { [ALTERNATIVES]: _, ...rest } = response;
  return { ...rest, content: { ...(response.content as Json | undefined), ...alternatives } };
}

function mergedResponses(responses: Json): Json {
  return Object.fromEntries(Object.entries(responses).map(([status, r]) => [status, merged(r as Json)]));
}

/**
 * openapi.json with every `x-oz-alternative-content` merged into its `content`: what `GET /v1/openapi.json?content=all`
 * serves, for validators that check markdown, text and stream answers against the document.
 */
export function withAllContent(doc: Json): Json {
  const paths = Object.fromEntries(
    Object.entries(doc.paths as Record<string, Json>).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, op]) => {
          const operation = op as Json;
          return [method, operation.responses ? { ...operation, responses: mergedResponses(operation.responses as Json) } : op];
        }),
      ),
    ]),
  );
  const components = doc.components as Json;
  return { ...doc, paths, components: { ...components, responses: mergedResponses(components.responses as Json) } };
}

const texts = new Map<'primary' | 'all', string>();

/** The served document, serialized on first use: `primary` is openapi.json as it is, `all` with the alternatives merged. */
export function documentText(view: 'primary' | 'all'): string {
  let text = texts.get(view);
  if (text === undefined) {
    text = JSON.stringify(view === 'all' ? withAllContent(OPENAPI_DOCUMENT as Json) : OPENAPI_DOCUMENT);
    texts.set(view, text);
  }
  return text;
}
