// jest, CommonJS (ts-jest, @swc/jest or babel-jest): the package by `import`, compiled to `require`.
import { afterAll, beforeAll, test } from '@jest/globals';
import * as msw from 'msw';
import * as mswNode from 'msw/node';
import * as sdk from 'oz-sdk';
import * as funcs from 'oz-sdk/funcs';
import * as mcp from 'oz-sdk/mcp';
import * as testing from 'oz-sdk/testing';

// The features' CommonJS form (scripts/runner-matrix.mjs writes it from features.mjs).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { registerFeatures } = require('./features.cjs');

registerFeatures({ test, beforeAll, afterAll }, { sdk, testing, funcs, mcp, msw, mswNode });
