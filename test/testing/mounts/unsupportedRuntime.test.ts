import { afterEach, describe, expect, it, vi } from 'vitest';

// A runtime that forbids code generation from strings, as Cloudflare Workers do: `new Function` throws.
function forbidCodeGeneration(): void {
  vi.stubGlobal('Function', function Function() {
    throw new EvalError('Code generation from strings disallowed for this context');
  });
}

/** A fresh copy of oz-sdk/testing: the capability is probed once per module instance. */
async function freshTesting(): Promise<typeof import('../../../src/testing/index.js')> {
  vi.resetModules();
  return await import('../../../src/testing/index.js');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createOzServer() on a runtime without new Function', () => {
  it('throws OzUnsupportedRuntimeError naming the capability, the runtimes that have it, and the cause', async () => {
    const testing = await freshTesting();
    forbidCodeGeneration();
    let error: unknown;
    try {
      testing.createOzServer();
    } catch (caught) {
      error = caught;
    }
    vi.unstubAllGlobals();
    expect(error).toBeInstanceOf(testing.OzUnsupportedRuntimeError);
    const typed = error as InstanceType<typeof testing.OzUnsupportedRuntimeError>;
    expect(typed.name).toBe('OzUnsupportedRuntimeError');
    expect(typed.message).toBe(
      'The embedded Oz server (oz-sdk/testing) needs a runtime that allows code generation from strings (new Function), ' +
        'which this one forbids (Code generation from strings disallowed for this context): it compiles its request ' +
        'validators from openapi.json. Run it in Node.js, Bun or Deno (createOzServer().listen() or npx oz-mock) and call it over HTTP from here.',
    );
    expect(typed.cause).toBeInstanceOf(EvalError);
  });

  it('probes once: the answer of the first call holds for every later one', async () => {
    const testing = await freshTesting();
    forbidCodeGeneration();
    expect(() => testing.createOzServer()).toThrow(testing.OzUnsupportedRuntimeError);
    vi.unstubAllGlobals();
    // The capability is back, but this module instance already knows the runtime refused it.
    expect(() => testing.createOzServer()).toThrow(testing.OzUnsupportedRuntimeError);
  });

  it('creates the server where new Function works; the answer, probed once, holds', async () => {
    const testing = await freshTesting();
    const server = testing.createOzServer();
    forbidCodeGeneration();
    const second = testing.createOzServer();
    vi.unstubAllGlobals();
    const health = await second.fetch(new Request(`${second.url}/health`));
    expect(health.status).toBe(200);
    await second.close();
    await server.close();
  });
});
