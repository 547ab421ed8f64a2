// ts-jest, CommonJS: `jest --config examples/testing/jest/jest.ts-jest.cjs.config.cjs`
module.exports = {
  ...require('./jest.base.cjs')('cjs'),
  transform: {
    '^.+\\.(ts|m?js)$': [
      'ts-jest',
      { tsconfig: { module: 'commonjs', moduleResolution: 'node10', target: 'es2022', esModuleInterop: true, isolatedModules: true, allowJs: true } },
    ],
  },
};
