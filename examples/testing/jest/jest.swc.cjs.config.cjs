// @swc/jest, CommonJS: `jest --config examples/testing/jest/jest.swc.cjs.config.cjs`
module.exports = {
  ...require('./jest.base.cjs')('cjs'),
  transform: { '^.+\\.(ts|m?js)$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
};
