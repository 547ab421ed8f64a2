// ESM entry of the ecosystem scenario: `import` of the installed package, in process and over HTTP.
import * as sdk from 'oz-sdk';
import * as testing from 'oz-sdk/testing';
import { runScenario } from './scenario.mjs';

const report = await runScenario({ sdk, testing, listen: true });
console.log(JSON.stringify({ module: 'esm', ...report }));
