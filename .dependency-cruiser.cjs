// The layering rule of ARCHITECTURE.md, checked by `npm run lint:layers` (part of `npm test`). Each layer is a
// folder and imports only what stands below it; type-only imports count too.
//
//   src/core/        the transport; imports nothing of ours
//   src/generated/   written from openapi.json; imports only the core
//   src/resources/, src/mcp/, src/signin/   beside each other, over the core and the generated layer
//   src/client.ts, src/index.ts             the client and the package's root
//   src/profiles/    the profile file (beside resources, mcp and signin; the client reads a key from it)
//   src/cli/         the `oz` command line: a program over the client (index, client, generated, core, profiles);
//                    nothing imports it, and it never imports the embedded server (`oz mock` runs oz-mock's bin)
//   src/testing/     the embedded server: may use the core's and generated types and openapi.json, never the client;
//                    its handlers (src/testing/handlers/) never import each other
const CLIENT = '^src/(client[.]ts|index[.]ts|resources/|mcp/|signin/|profiles/)';

/** A forbidden import: from a file matching `from.path` to one matching `to.path`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'core-imports-nothing-of-ours',
      'src/core is the bottom layer: it imports no other folder of src and not openapi.json.',
      { path: '^src/core/' },
      { path: '^(src/(?!core/)|openapi[.]json$)' },
    ),
    forbid(
      'generated-imports-only-core',
      'src/generated is written from openapi.json and stands on the core alone.',
      { path: '^src/generated/' },
      { path: '^(src/(?!generated/|core/)|openapi[.]json$)' },
    ),
    forbid('client-never-imports-server', 'Nothing of the SDK imports the embedded server (src/testing).', { path: '^src/(?!testing/)' }, { path: '^src/testing/' }),
    forbid(
      'server-never-imports-client',
      'The embedded server uses the generated types and openapi.json, never the client, its root or its resources.',
      { path: '^src/testing/' },
      { path: CLIENT },
    ),
    forbid(
      'resources-beside-each-other',
      'resources, mcp, signin and profiles stand side by side under the client: none imports another or the client.',
      { path: '^src/(resources|mcp|signin|profiles)/' },
      { path: '^src/(client[.]ts|index[.]ts|(resources|mcp|signin|profiles)/)', pathNot: '^src/$1/' },
    ),
    forbid('nothing-imports-the-cli', 'src/cli is the `oz` program: nothing of the package imports it.', { path: '^src/(?!cli/)' }, { path: '^src/cli/' }),
    forbid(
      'cli-uses-the-client-only',
      'The command line is a program over the client: it imports the package root, the client, the generated table, the core and the profile store; never the embedded server (`oz mock` runs its bin) nor the client\'s inner modules.',
      { path: '^src/cli/' },
      { path: '^(src/(?!cli/|index[.]ts$|client[.]ts$|generated/|core/|profiles/)|openapi[.]json$)' },
    ),
    forbid(
      'handlers-never-import-handlers',
      'A handler of the embedded server imports no other handler: shared views and lookups have their own modules (handlers/index.ts, the registry, lists them all).',
      { path: '^src/testing/handlers/(?!index[.]ts$)' },
      { path: '^src/testing/handlers/' },
    ),
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
