// ts-jest, ESM: `node --experimental-vm-modules node_modules/jest/bin/jest.js --config examples/testing/jest/jest.ts-jest.esm.config.cjs`
module.exports = {
  ...require('./jest.base.cjs')('esm'),
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: { module: 'es2022', moduleResolution: 'bundler', target: 'es2022', esModuleInterop: true, isolatedModules: true } },
    ],
  },
};
