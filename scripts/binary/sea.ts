// What `npm run build:binary` needs from the Node.js that runs it to make a single executable application (SEA):
// the config it hands `node --experimental-sea-config`, and why a given Node cannot serve (checked before any
// file is written, so a failed build says what to change).

/** The fuse Node's binary carries for its SEA blob; postject flips it when it injects one. */
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** The resource name Node looks for its SEA blob under. */
export const SEA_RESOURCE = 'NODE_SEA_BLOB';
/** The oldest Node 20 whose SEA config takes `disableExperimentalSEAWarning` and `useCodeCache`. */
const OLDEST = [20, 12] as const;

/** The file name of the executable on a platform. */
export const binaryName = (platform: NodeJS.Platform): string => (platform === 'win32' ? 'oz-mock.exe' : 'oz-mock');

/**
 * The SEA config: one CommonJS script as the program, no "single-executable applications is experimental" line
 * on stderr, and V8's code cache of the script in the blob (a faster start on the same Node).
 */
export const seaConfigOf = (main: string, output: string) => ({ main, output, disableExperimentalSEAWarning: true, useCodeCache: true });

/**
 * Why this Node cannot make the executable (undefined when it can): its version, or its binary, which must be an
 * official build carrying the SEA fuse unflipped (a Node that is itself a SEA, or a distribution's build without
 * the fuse, cannot be injected).
 */
export function seaProblemOf(version: string, executable: Buffer): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (major < OLDEST[0] || (major === OLDEST[0] && minor < OLDEST[1]))
    return `Node ${version} cannot build it: single executable applications with this config need Node ${OLDEST.join('.')} or later`;
  const fuse = executable.indexOf(`${SEA_FUSE}:`);
  if (fuse === -1) return `this Node binary has no single-executable fuse (${SEA_FUSE}): use an official build of Node.js from nodejs.org or the npm registry`;
  if (executable[fuse + SEA_FUSE.length + 1] !== 0x30) return 'this Node binary is itself a single executable application: run the build with a plain Node.js';
  return undefined;
}
