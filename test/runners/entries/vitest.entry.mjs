// vitest, in the environment its command line names (node, jsdom, happy-dom).
import * as mswNode from 'msw/node';
import * as sdk from 'oz-sdk';
import * as funcs from 'oz-sdk/funcs';
import * as mcp from 'oz-sdk/mcp';
import * as testing from 'oz-sdk/testing';
import { afterAll, beforeAll, test } from 'vitest';
import { registerFeatures } from './features.mjs';

registerFeatures({ test, beforeAll, afterAll }, { sdk, testing, funcs, mcp, mswNode });
