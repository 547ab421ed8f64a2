/**
 * Thrown by `createOzServer()` on a runtime that forbids code generation from strings (`new Function`), such as
 * Cloudflare Workers: the embedded server compiles its request validators from openapi.json (and from the input
 * schemas of tools and agents) into functions at run time. Run the server in Node.js, Bun or Deno, and call it
 * over HTTP from such a runtime.
 */
export class OzUnsupportedRuntimeError extends Error {
  override readonly name = 'OzUnsupportedRuntimeError';

  constructor(
    message: string,
    /** Why the runtime refused: the error `new Function` threw. */
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

let refusal: { cause: unknown } | null | undefined;

/** The error `new Function` throws here, or `null` when it works; probed once, on first use. */
function codeGenerationRefusal(): { cause: unknown } | null {
  if (refusal === undefined) {
    try {
      refusal = new Function('return true')() === true ? null : { cause: new Error('new Function did not run its code') };
    } catch (cause) {
      refusal = { cause };
    }
  }
  return refusal;
}

/** Throws {@link OzUnsupportedRuntimeError} when this runtime forbids `new Function`. */
export function assertCodeGeneration(): void {
  const refused = codeGenerationRefusal();
  if (!refused) return;
  const reason = refused.cause instanceof Error ? refused.cause.message : String(refused.cause);
  throw new OzUnsupportedRuntimeError(
    'The embedded Oz server (oz-sdk/testing) needs a runtime that allows code generation from strings ' +
      `(new Function), which this one forbids (${reason}): it compiles its request validators from openapi.json. ` +
      'Run it in Node.js, Bun or Deno (createOzServer().listen() or npx oz-mock) and call it over HTTP from here.',
    refused.cause,
  );
}
