// The tiny suite of gate.vitest.ts, run alone (by ../coverageRunners.test.ts), oz-sdk/testing from the source.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: { 'oz-sdk/testing': fileURLToPath(new URL('../../../../src/testing/index.ts', import.meta.url)) } },
  test: { include: ['gate.vitest.ts'], watch: false },
});
