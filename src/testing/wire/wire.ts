import type { Format } from '../../generated/types.js';
import { ownValue } from '../support/plainObject.js';

/** The content type each wire answers with. */
export const WIRE_CONTENT_TYPES: Readonly<Record<Format, string>> = {
  json: 'application/json',
  yaml: 'text/yaml; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
};

const ACCEPT_TYPES: Readonly<Record<string, Format>> = {
  'application/json': 'json',
  'text/yaml': 'yaml',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/markdown': 'markdown',
  'text/plain': 'text',
};

/** Whether a value is one of the four wire names. */
export function isWire(value: unknown): value is Format {
  return value === 'json' || value === 'yaml' || value === 'markdown' || value === 'text';
}

/** The media type essence of a Content-Type or Accept entry: lower case, parameters dropped. */
export function mediaType(value: string | null): string {
  if (!value) return '';
  const semi = value.indexOf(';');
  return (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
}

/** Whether a request Content-Type names YAML. */
export function isYamlType(contentType: string | null): boolean {
  const t = mediaType(contentType);
  return t === 'text/yaml' || t === 'application/yaml' || t === 'application/x-yaml';
}

// Clients send the same few Accept values again and again: parse each once.
const acceptCache = new Map<string, Format | null>();

/**
 * Rule 2 of wire selection: the Accept entry with the highest q naming a known type; ties go to the first
 * listed; `*\/*`, other ranges and unknown types are skipped; q=0 refuses. Never an error.
 */
export function wireFromAccept(accept: string | null): Format | undefined {
  if (!accept) return undefined;
  let cached = acceptCache.get(accept);
  if (cached === undefined) {
    cached = preferredAcceptType(accept, ACCEPT_TYPES);
    if (acceptCache.size > 256) acceptCache.clear();
    acceptCache.set(accept, cached);
  }
  return cached ?? undefined;
}

/**
 * What the Accept entry with the highest q among the given media types names: ties go to the first listed; other
 * types and ranges are skipped; q=0 refuses (a q that is not a number counts as 1, out of range as its bound).
 */
export function preferredAcceptType<T>(accept: string | null, types: Readonly<Record<string, T>>): T | null {
  let best: T | null = null;
  let bestQ = 0;
  for (const entry of (accept ?? '').split(',')) {
    const parts = entry.split(';');
    const type = parts[0]!.trim().toLowerCase();
    const named = ownValue(types, type);
    if (named === undefined) continue;
    let q = 1;
    for (let i = 1; i < parts.length; i++) {
      const [name, value] = parts[i]!.split('=');
      if (name?.trim().toLowerCase() === 'q') {
        const n = Number(value?.trim());
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
      }
    }
    if (q > bestQ) {
      best = named;
      bestQ = q;
    }
  }
  return best;
}

/** Rule 3: a YAML request Content-Type answers yaml, anything else json. */
export function wireFromContentType(contentType: string | null): Format {
  return isYamlType(contentType) ? 'yaml' : 'json';
}

/** Rules 1 to 3 of wire selection, given an already valid explicit format (or none). */
export function negotiateWire(explicit: Format | undefined, accept: string | null, contentType: string | null): Format {
  return explicit ?? wireFromAccept(accept) ?? wireFromContentType(contentType);
}
