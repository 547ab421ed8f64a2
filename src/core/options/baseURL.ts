import { OzUsageError } from '../errors/errors.js';

/**
 * The base address, checked once where it is given: an absolute http(s) URL of the service's root. Paths of
 * openapi.json start with `/v1/`, so a base ending in `/v1` (the openai client's habit) would call `/v1/v1/...`
 * and get 404s: it is refused with the address to pass instead. A base carrying a user name or password
 * (`http://user:secret@host`), which fetch refuses to send, is refused too, without quoting them.
 */
export function checkedBaseURL(value: string, name = 'baseURL'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OzUsageError(`${name} ${JSON.stringify(value)} is not an absolute URL; pass the service's address, for example "https://oz.example.com".`);
  }
  if (url.username !== '' || url.password !== '') {
    // Never quoted as given: the password would be in the message, and in every log that keeps it.
    url.username = '';
    url.password = '';
    throw new OzUsageError(
      `${name} ${JSON.stringify(url.href)} (shown without them) carries a user name or password, which no request may; pass the address without them and the key as apiKey.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `user:secret@host` reads as the scheme `user:`: a value with an `@` is not quoted.
    throw new OzUsageError(`${name}${value.includes('@') ? '' : ` ${JSON.stringify(value)}`} must be an http:// or https:// address.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/i.test(path)) {
    const root = `${url.origin}${path.slice(0, -3)}`;
    throw new OzUsageError(
      `${name} ${JSON.stringify(value)} ends in /v1, but every path of the API already starts with /v1/: pass ${JSON.stringify(root)} instead.`,
    );
  }
  return value;
}
