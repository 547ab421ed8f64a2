// deno test: one Deno.test whose steps are the features (Deno.test has no beforeAll or afterAll).
import * as mswNode from 'msw/node';
import * as sdk from 'oz-sdk';
import * as funcs from 'oz-sdk/funcs';
import * as mcp from 'oz-sdk/mcp';
import * as testing from 'oz-sdk/testing';
import { registerFeatures } from './features.mjs';

Deno.test('oz-sdk features', async (t) => {
  const steps = [];
  let setUp = () => {};
  let tearDown = () => undefined;
  registerFeatures(
    { test: (name, fn) => steps.push([name, fn]), beforeAll: (fn) => (setUp = fn), afterAll: (fn) => (tearDown = fn) },
    { sdk, testing, funcs, mcp, mswNode },
  );
  setUp();
  try {
    for (const [name, fn] of steps) await t.step(name, fn);
  } finally {
    await tearDown();
  }
});
