// A plain CommonJS program (run by `node` as a .cjs file): every feature in turn, exit 1 on a failure.
const mswNode = require('msw/node');
const sdk = require('oz-sdk');
const funcs = require('oz-sdk/funcs');
const mcp = require('oz-sdk/mcp');
const testing = require('oz-sdk/testing');
const { closeEnvironment, FEATURES, openEnvironment, runFeature } = require('./features.cjs');

(async () => {
  const env = openEnvironment({ sdk, testing, funcs, mcp, mswNode });
  for (const feature of FEATURES) {
    await runFeature(feature, env).catch((error) => {
      console.error(`${feature.name}:`, error);
      process.exitCode = 1;
    });
  }
  await closeEnvironment(env);
})();
