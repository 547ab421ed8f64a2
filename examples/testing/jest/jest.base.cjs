// What the four jest setups share: the package by its name, pointing at the build (dist/), as in a user's project.
const path = require('node:path');

const root = path.resolve(__dirname, '../../..');

/** @param {'cjs' | 'esm'} kind */
module.exports = (kind) => ({
  rootDir: root,
  testEnvironment: 'node',
  globalSetup: '<rootDir>/examples/testing/jest/globalSetup.cjs',
  globalTeardown: '<rootDir>/examples/testing/jest/globalTeardown.cjs',
  testMatch: ['<rootDir>/examples/testing/jest/*.jest.ts'],
  moduleNameMapper: {
    // (globalSetup.cjs is loaded outside jest's registry: there 'oz-sdk/testing' is this package itself.)
    '^oz-sdk$': `<rootDir>/dist/index.${kind === 'esm' ? 'js' : 'cjs'}`,
    '^oz-sdk/testing$': `<rootDir>/dist/testing/index.${kind === 'esm' ? 'js' : 'cjs'}`,
  },
  // msw 2's CommonJS build requires packages that ship only ESM (rettime): jest's CommonJS mode on Node 20
  // cannot require them, so they are transformed like the tests (jest's own advice for ESM in node_modules).
  ...(kind === 'esm' ? { extensionsToTreatAsEsm: ['.ts'] } : { transformIgnorePatterns: ['/node_modules/(?!(rettime|@open-draft|until-async)/)'] }),
});
