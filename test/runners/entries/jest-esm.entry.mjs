// jest, ESM (node --experimental-vm-modules): the package by `import`, untransformed.
import { afterAll, beforeAll, test } from '@jest/globals';
import * as msw from 'msw';
import * as mswNode from 'msw/node';
import * as sdk from 'oz-sdk';
import * as funcs from 'oz-sdk/funcs';
import * as mcp from 'oz-sdk/mcp';
import * as testing from 'oz-sdk/testing';
import { registerFeatures } from './features.mjs';

registerFeatures({ test, beforeAll, afterAll }, { sdk, testing, funcs, mcp, msw, mswNode });
