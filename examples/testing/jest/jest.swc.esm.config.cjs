// @swc/jest, ESM: `node --experimental-vm-modules node_modules/jest/bin/jest.js --config examples/testing/jest/jest.swc.esm.config.cjs`
module.exports = {
  ...require('./jest.base.cjs')('esm'),
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }] },
};
