// CommonJS entry of the ecosystem scenario: `require` of the installed package, in process and over HTTP.
const sdk = require('oz-sdk');
const testing = require('oz-sdk/testing');

import('./scenario.mjs')
  .then(({ runScenario }) => runScenario({ sdk, testing, listen: true }))
  .then((report) => console.log(JSON.stringify({ module: 'cjs', ...report })))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
