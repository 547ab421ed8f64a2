// node:test (`node --test`).
import { after, before, test } from 'node:test';
import * as mswNode from 'msw/node';
import * as sdk from 'oz-sdk';
import * as funcs from 'oz-sdk/funcs';
import * as mcp from 'oz-sdk/mcp';
import * as testing from 'oz-sdk/testing';
import { registerFeatures } from './features.mjs';

registerFeatures({ test, beforeAll: before, afterAll: after }, { sdk, testing, funcs, mcp, mswNode });
