// A plain ES module program (run by `node` as a .mjs file): every feature in turn, exit 1 on a failure.
import * as mswNode from 'msw/node';
import * as sdk from 'oz-sdk';
import * as funcs from 'oz-sdk/funcs';
import * as mcp from 'oz-sdk/mcp';
import * as testing from 'oz-sdk/testing';
import { closeEnvironment, FEATURES, openEnvironment, runFeature } from './features.mjs';

const env = openEnvironment({ sdk, testing, funcs, mcp, mswNode });
for (const feature of FEATURES)
  await runFeature(feature, env).catch((error) => {
    console.error(`${feature.name}:`, error);
    process.exitCode = 1;
  });
await closeEnvironment(env);
