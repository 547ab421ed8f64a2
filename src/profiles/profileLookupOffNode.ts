import type { profileKey as nodeProfileKey } from './profileLookup.js';

// `#profile-file` where Node's modules are not (package.json "imports", every condition but `node`): what a bundle
// for an Edge route, a Worker or a browser holds in place of profileLookup.ts. There is no file to read, so no profile
// gives a key; it imports nothing (the error class is handed in).

/** No profile's key off Node: the `OzUsageError` (the `UsageError` handed in) a client without a key gets on its call. */
export const profileKey: typeof nodeProfileKey = (_token, _env, _baseURL, UsageError) =>
  Promise.reject(new UsageError('No API key: pass `apiKey` or set OZ_API_KEY (this runtime has no Node modules, so no profile of `oz sign-in` is read).'));
