// The single executable's suite (`npm run test:binary`): it builds the executable when it is missing or stale (10 s)
// and spawns it, so `npm test` leaves it out; CI runs it from .ci/run after `npm run build:binary`. (The include
// list is replaced, not merged: mergeConfig would add the whole suite's files to it.)
import { defineConfig } from 'vitest/config';
import { shared as base } from '../../vitest.config.js';

export default defineConfig({ ...base, test: { ...base.test, include: ['test/binary/**/*.binary.ts'], testTimeout: 60_000, hookTimeout: 120_000 } });
