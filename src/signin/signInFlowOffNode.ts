import type { runSignIn as runNodeSignIn } from './signInFlow.js';

// `#sign-in` where Node's modules are not (package.json "imports", every condition but `node`): what a bundle for an
// Edge route, a Worker or a browser holds in place of signInFlow.ts. It imports nothing (the error class is handed
// in), so the bundle holds no Node module and no stub of one.

/** `signIn()` off Node: an `OzUsageError` (the `UsageError` handed in by signIn.ts) that says it needs Node. */
export const runSignIn: typeof runNodeSignIn = (_options, { UsageError }) =>
  Promise.reject(
    new UsageError(
      "signIn() needs Node.js: it listens on a local port for the dashboard's callback, and this runtime has no Node modules. " +
        'Sign in on Node (`oz sign-in`) and give the key here as `apiKey` or OZ_API_KEY.',
    ),
  );
