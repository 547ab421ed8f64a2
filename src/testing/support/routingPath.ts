// How the server reads a request's path before and after matching it against the route table: what hono, its
// router until the table, did (a path written with escapes reaches the same route and parameters as before).

/** `decodeURI`, or as much of it as decodes: a malformed escape stays as it was sent. */
function tryDecode(text: string, decode: (part: string) => string): string {
  try {
    return decode(text);
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decode(run);
      } catch {
        return run;
      }
    });
  }
}

// `%25` stays an escape, so a decoded path never gains a `%` that reads as a new escape.
const decodeKeepingPercent = (path: string): string => decodeURI(path.includes('%25') ? path.replace(/%25/g, '%2525') : path);

/** The path a route is matched on: escapes of characters other than `/`, `?`, `#` and `%` decoded. */
export function routingPath(path: string): string {
  return path.includes('%') ? tryDecode(path, decodeKeepingPercent) : path;
}

/** A route's parameters, each decoded (`%2F` to `/`); a malformed escape stays as sent. */
export function decodedParams(params: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) out[name] = value.includes('%') ? tryDecode(value, decodeURIComponent) : value;
  return Object.freeze(out);
}
