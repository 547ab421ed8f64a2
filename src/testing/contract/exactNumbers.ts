import type { ValidationProblem } from './schemaValidation.js';

// A number token that may not survive parsing exactly: 16 digits or more, or an exponent.
const MAY_BE_INEXACT = /[0-9]{16}|[0-9][eE]/;

/**
 * The first number of a parsed request body that JavaScript cannot hold exactly: an integer outside
 * ±Number.MAX_SAFE_INTEGER (`9007199254740993` parses as `9007199254740992`) or one too large for a number at all.
 * Such a value would be stored rounded without a word; the request answers 422 naming the field instead. The
 * body's text is scanned first, so the usual body is not walked.
 */
export function inexactNumberProblem(raw: string | null, body: unknown): ValidationProblem | null {
  if (raw === null || !MAY_BE_INEXACT.test(raw)) return null;
  const field = inexactField(body, '');
  if (field === null) return null;
  return {
    message: `${field || 'The body'} must be a number JavaScript holds exactly: integers from ${-Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}.`,
    missing: [],
    field: field || null,
  };
}

function inexactField(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) || (Number.isFinite(value) && !Number.isInteger(value)) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = inexactField(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      const found = inexactField(v, path ? `${path}.${key}` : key);
      if (found !== null) return found;
    }
  }
  return null;
}
