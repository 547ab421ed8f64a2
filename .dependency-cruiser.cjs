// The layering rule of ARCHITECTURE.md, checked by `npm run lint:layers` (part of `npm test`). Each layer is a
// folder and imports only what stands below it; type-only imports count too.
//
//   src/core/        the transport; imports nothing of ours; inside it, folders ranked by CORE_RANKS (below): the
//                    steps of a call in their chain's order, then what they share, errors/ at the bottom
//   src/generated/   written from openapi.json; imports only the core
//   src/resources/, src/mcp/, src/signin/   beside each other, over the core and the generated layer
//   src/client.ts, src/index.ts             the client and the package's root
//   src/clientOptions.ts                    the client's options (the Oz client's and OzCore's), over core and generated
//   src/funcs/       `oz-sdk/funcs`: OzCore and the entry of the generated standalone functions (over core,
//                    generated, profiles and clientOptions.ts); nothing of the package imports it
//   src/profiles/    the profile file (beside resources, mcp and signin; the client reads a key from it)
//   src/cli/         the `oz` command line: a program over the client (index, client, generated, core, profiles);
//                    nothing imports it, and it never imports the embedded server (`oz mock` runs oz-mock's bin)
//   src/testing/     the embedded server: may use the core's and generated types and openapi.json, never the client;
//                    inside it, folders by concept, each a layer over the ones before it in SERVER_LAYERS (below);
//                    its handlers (src/testing/handlers/<tag>.ts) never import each other, only handlers/shared/
//                    and the folder of their own parts (handlers/<tag>/)
// and no import circle anywhere in src/, type-only imports included.
const CLIENT = '^src/(client[.]ts|clientOptions[.]ts|index[.]ts|funcs/|resources/|mcp/|signin/|profiles/|raw/)';

/**
 * The folders of the embedded server, bottom first (ARCHITECTURE.md has each one's purpose): a file of one may
 * import the folders before it and its own, never one after it nor the entry points and composition root at the
 * top of src/testing/ (index.ts, cli.ts, server.ts).
 */
/**
 * The folders of src/core, top first: the steps of a call in their chain's order (callChain.ts), then what they
 * share, bottom last. A file of one imports only folders after it (and its own); the files at the top of src/core
 * (the transport, the chain, a standalone function's client) import any.
 */
const CORE_RANKS = [
  'span',
  'answer',
  'recovery',
  'retry',
  'attempt',
  'middleware',
  'redirect',
  'fetch',
  'executions',
  'result',
  'request',
  'options',
  'validation',
  'telemetry',
  'shared',
  'streams',
  'errors',
];

const SERVER_LAYERS = [
  'support',
  'time',
  'contract',
  'wire',
  'recording',
  'state',
  'runs',
  'harness',
  'pipeline',
  'handlers',
  'mounts',
  'fixtures',
  'public',
  'parts',
  'control',
  'sessions',
  'parity',
  'builders',
];

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
    ...CORE_RANKS.map((folder, i) =>
      forbid(
        `core-${folder}-imports-below`,
        `src/core/${folder}/ imports only itself and the folders after it: ${CORE_RANKS.slice(i + 1).join(', ') || 'none'} (no import runs back up the chain).`,
        { path: `^src/core/${folder}/` },
        { path: `^src/core/(${[...CORE_RANKS.slice(0, i), '[^/]+[.]ts$'].join('|')})`, pathNot: `^src/core/${folder}/` },
      ),
    ),
    forbid(
      'core-folders-only',
      "Every file of src/core has a folder, but the ones that run the steps: the transport, the chain, a standalone function's client.",
      { path: '^src/core/(?!(transport|callChain|coreClient)[.]ts$)[^/]+[.]ts$' },
      {},
    ),
    forbid(
      'generated-imports-only-core',
      'src/generated is written from openapi.json and stands on the core alone.',
      { path: '^src/generated/' },
      { path: '^(src/(?!generated/|core/)|openapi[.]json$)' },
    ),
    forbid(
      'client-never-imports-server',
      'Nothing of the SDK imports the embedded server (src/testing).',
      { path: '^src/(?!testing/)' },
      { path: '^src/testing/' },
    ),
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
    forbid(
      'funcs-over-core-and-generated',
      'oz-sdk/funcs (OzCore and the standalone functions) stands on the core, the generated layer, the profile file and the client options: never the Oz client, its resources, MCP or sign-in.',
      { path: '^src/funcs/' },
      { path: '^(src/(?!funcs/|core/|generated/|profiles/|clientOptions[.]ts$)|openapi[.]json$)' },
    ),
    forbid(
      'nothing-imports-funcs',
      'src/funcs is the `oz-sdk/funcs` entry: nothing else of the package imports it.',
      { path: '^src/(?!funcs/)' },
      { path: '^src/funcs/' },
    ),
    forbid('nothing-imports-the-cli', 'src/cli is the `oz` program: nothing of the package imports it.', { path: '^src/(?!cli/)' }, { path: '^src/cli/' }),
    forbid(
      'cli-uses-the-client-only',
      "The command line is a program over the client: it imports the package root, the client, the generated table, the core and the profile store; never the embedded server (`oz mock` runs its bin) nor the client's inner modules.",
      { path: '^src/cli/' },
      { path: '^(src/(?!cli/|index[.]ts$|client[.]ts$|generated/|core/|profiles/)|openapi[.]json$)' },
    ),
    forbid(
      'handlers-never-import-handlers',
      'A handler of the embedded server imports no other handler: what two of them share is in handlers/shared/, the parts of one (<tag>.ts) in a folder of its name, handlers/<tag>/ (handlers/index.ts, the registry, lists them all).',
      { path: '^src/testing/handlers/(?!index[.]ts$)([^/.]+)' },
      { path: '^src/testing/handlers/', pathNot: '^src/testing/handlers/(shared|$1)/' },
    ),
    forbid(
      'server-folders-only',
      "Every file of src/testing/ has a folder by concept, but the entry points (index.ts, cli.ts), the composition root (server.ts) and the server's chain (serverChain.ts: its steps come from every folder).",
      { path: '^src/testing/(?!(index|cli|server|serverChain)[.]ts$)[^/]+$' },
      {},
    ),
    ...SERVER_LAYERS.map((layer, i) =>
      forbid(
        `server-${layer}-imports-below`,
        `src/testing/${layer}/ imports only the server's folders before it (${SERVER_LAYERS.slice(0, i).join(', ') || 'none'}) and itself.`,
        { path: `^src/testing/${layer}/` },
        { path: `^src/testing/(${[...SERVER_LAYERS.slice(i + 1), '[^/]+[.]ts$'].join('|')})`, pathNot: `^src/testing/${layer}/` },
      ),
    ),
    {
      name: 'no-circular',
      comment: 'No import circle in src/, type-only imports included: a circle ties its files into one.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
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
