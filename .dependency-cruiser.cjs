// The layering rule of ARCHITECTURE.md, checked by `npm run lint:layers` (part of `npm test`). Each layer is a
// folder and imports only what stands below it; type-only imports count too.
//
//   src/core/        the transport; imports nothing of ours
//   src/generated/   written from openapi.json; imports only the core
//   src/resources/, src/mcp/, src/signin/   beside each other, over the core and the generated layer
//   src/client.ts, src/index.ts             the client and the package's root
//   src/testing/     the embedded server: may use the core's and generated types and openapi.json, never the client
const CLIENT = '^src/(client[.]ts|index[.]ts|resources/|mcp/|signin/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-nothing-of-ours',
      comment: 'src/core is the bottom layer: it imports no other folder of src and not openapi.json.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^(src/(?!core/)|openapi[.]json$)' },
    },
    {
      name: 'generated-imports-only-core',
      comment: 'src/generated is written from openapi.json and stands on the core alone.',
      severity: 'error',
      from: { path: '^src/generated/' },
      to: { path: '^(src/(?!generated/|core/)|openapi[.]json$)' },
    },
    {
      name: 'client-never-imports-server',
      comment: 'Nothing of the SDK imports the embedded server (src/testing).',
      severity: 'error',
      from: { path: '^src/(?!testing/)' },
      to: { path: '^src/testing/' },
    },
    {
      name: 'server-never-imports-client',
      comment: 'The embedded server uses the generated types and openapi.json, never the client, its root or its resources.',
      severity: 'error',
      from: { path: '^src/testing/' },
      to: { path: CLIENT },
    },
    {
      name: 'resources-beside-each-other',
      comment: 'resources, mcp and signin stand side by side under the client: none imports another or the client.',
      severity: 'error',
      from: { path: '^src/(resources|mcp|signin)/' },
      to: { path: '^src/(client[.]ts|index[.]ts|(resources|mcp|signin)/)', pathNot: '^src/$1/' },
    },
  ],
  options: {
    includeOnly: '^(src/|openapi[.]json$)',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
