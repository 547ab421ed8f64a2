// The tiny suite of gate.jest.ts under jest (@swc/jest, CommonJS), run alone by ../coverageRunners.test.ts,
// oz-sdk/testing from the source.
const path = require('node:path');

const root = path.resolve(__dirname, '../../../..');

module.exports = {
  rootDir: root,
  roots: [__dirname],
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/testing/harness/coverageRunners/gate.jest.ts'],
  moduleNameMapper: {
    '^oz-sdk/testing$': '<rootDir>/src/testing/index.ts',
    // The sources import their siblings as `.js` (NodeNext): jest finds the `.ts`.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.(ts|m?js)$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', importAttributes: true }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
};
