/** The outcome of {@link tryParseJson}: the parsed value, or the `SyntaxError` saying why the text is no JSON. */
export type JsonParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/**
 * Parses a JSON text without throwing: the caller decides what invalid JSON means (an error body that carries
 * no envelope, or a success body that is broken).
 */
export function tryParseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}
