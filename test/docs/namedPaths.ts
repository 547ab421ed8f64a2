/**
 * The rule for a file named in prose (a page of the docs, a comment), and which names break it.
 *
 * - A path whose first folder is a top folder of the repository (`src/core/transport.ts`, `examples/fixtures/`,
 *   `.ci/run`) must exist, as a file or a folder; a path under build output (`dist/`, `docs/api/`: the folders
 *   .gitignore lists) is not a source and is not checked.
 * - Another path with a folder, ending in a source file's extension (`pipeline/steps/replay.ts`, as ARCHITECTURE.md
 *   names files inside `src/testing/`), must be the end of a file's path, at a folder boundary.
 * - A bare file name with a source file's extension (`transport.ts`, `ARCHITECTURE.md`) must be the name of a file
 *   of the repository; in a comment of `src/`, of a file of `src/` or of the root (`tsup.config.ts`): the package
 *   names only its own files. The user's pages (README.md, docs/) are not held to this: a bare name there may be a
 *   file of the reader's own project.
 * Not checked: names after `./`, `../` or `/` (relative to a place the prose does not say, or an address), package
 *   paths (`oz-sdk/...`, `@scope/...`, `node_modules/...`), host names, and names with placeholders (`<tag>.ts`)
 *   or wildcards; `.js`, `.json` and `.yaml` names without a top folder (in prose they are mostly files of a user's
 *   project or of a runtime: `profiles.json`, `oz.js`), and MCP's method names, which read as paths (`tools/list`).
 */
import { REPOSITORY_FILES, REPOSITORY_FOLDERS, isOutput } from './repositoryFiles.js';

const SOURCE_EXTENSIONS = /\.(?:ts|mts|cts|mjs|cjs|md|sh)$/;
const TOP_FOLDERS = new Set([...REPOSITORY_FOLDERS].filter((folder) => !folder.includes('/')));
const FILES = new Set(REPOSITORY_FILES);
/** Every end of a file's path at a folder boundary (`steps/replay.ts`, `pipeline/steps/replay.ts`, ...). */
const PATH_ENDS = new Set(REPOSITORY_FILES.flatMap((path) => path.split('/').map((_, i, parts) => parts.slice(i).join('/'))));
const BASENAMES = new Set(REPOSITORY_FILES.map((path) => path.slice(path.lastIndexOf('/') + 1)));
const SRC_BASENAMES = new Set(
  REPOSITORY_FILES.filter((path) => path.startsWith('src/') || !path.includes('/')).map((path) => path.slice(path.lastIndexOf('/') + 1)),
);
const NOT_PATHS = new Set(['tools/list', 'tools/call']);

/** Where a text is, for the rule: a comment of `src/`, a page for the user (README.md, docs/), or other prose. */
export type Prose = 'src' | 'user' | 'other';

/** The names in `text` that break the rule above. */
export function brokenNames(text: string, where: Prose): string[] {
  const broken: string[] = [];
  for (const match of text.matchAll(/(?<![\w@.<>*{}~/$-])[\w.-]+(?:\/[\w.-]*)*(?![\w<>*{}$])/g)) {
    const name = match[0].replace(/[.:,;-]+$/, '');
    const before = text[match.index - 1] ?? '';
    if (!name || before === '/' || (name.startsWith('.') && !name.startsWith('.ci/')) || NOT_PATHS.has(name)) continue;
    const first = name.split('/')[0]!;
    if (name.includes('/')) {
      if (TOP_FOLDERS.has(first)) {
        const path = name.replace(/\/$/, '');
        if (!isOutput(path) && !REPOSITORY_FOLDERS.has(path) && !FILES.has(path)) broken.push(name);
      } else if (SOURCE_EXTENSIONS.test(name) && !first.includes('.') && first !== 'node_modules' && first !== 'oz-sdk') {
        if (!PATH_ENDS.has(name)) broken.push(name);
      }
    } else if (where !== 'user' && SOURCE_EXTENSIONS.test(name) && /^[\w-]/.test(name)) {
      if (!(where === 'src' ? SRC_BASENAMES : BASENAMES).has(name)) broken.push(name);
    }
  }
  return broken;
}
