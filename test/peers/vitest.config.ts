// The peers suites (`npm run test:peers:*`): third-party software run against oz-mock and openapi.json. They spawn
// processes and take longer than the unit suites, so `npm test` leaves them out; CI runs them from .ci/run.
import { defineConfig, mergeConfig } from 'vitest/config';
import { shared as base } from '../../vitest.config.js';

export default mergeConfig(base, defineConfig({ test: { include: ['test/peers/**/*.peer.ts'], testTimeout: 120_000, hookTimeout: 90_000 } }));
