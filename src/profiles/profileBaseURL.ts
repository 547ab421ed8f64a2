import type { Profile, ProfileDocument } from './profileStore.js';

// A profile's key belongs to the service it was made for (contract, 2026-11-26), as gh, npm and docker keep
// credentials per host: the one guard of the client's profile lookup and of `oz --profile`.

/** The stored profile of that name: an own entry of the file, never a property of every object (`constructor`). */
export function storedProfile(document: ProfileDocument | undefined, name: string): Profile | undefined {
  return document !== undefined && Object.hasOwn(document.profiles, name) ? document.profiles[name] : undefined;
}

/** A base URL compared as a service: scheme, host and port as the URL parser writes them, the path without trailing `/`. */
function serviceOf(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseURL.replace(/\/+$/, '');
  }
}

/**
 * Why the key of profile `name` may not be sent to `baseURL`: the profile keeps the base URL of another service.
 * Undefined when it may (the same service, or a profile that keeps no base URL).
 */
export function foreignServiceProblem(name: string, profile: Profile, baseURL: string): string | undefined {
  if (profile.base_url === undefined || serviceOf(profile.base_url) === serviceOf(baseURL)) return undefined;
  return (
    `The key of profile ${JSON.stringify(name)} was made for ${profile.base_url}, but the base URL in use is ${baseURL}: ` +
    'the key is not sent to another address. Give a key explicitly (`apiKey` or OZ_API_KEY), drop the other base URL, ' +
    `or sign in to ${baseURL} under another profile (\`oz sign-in --base-url ${baseURL} --profile NAME\`).`
  );
}
