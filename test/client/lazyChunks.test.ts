/**
 * What a program that only makes calls loads: the code of features most programs never use (OpenTelemetry spans,
 * the command-line sign-in, the raw client's routing, the error readers of the markdown and text wires) sits in
 * chunks of its own, imported on first use, each shared with nothing else (esbuild would split a shared module
 * into a chunk of its own, loaded with the client).
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { initialChunks } from '../../bench/initialChunks.js';

const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

// A string only each lazy module holds.
const LAZY = {
  'callSpan.ts': 'OpenTelemetry Context Key SPAN',
  'signInFlow.ts': '/api/cli/token',
  'rawCalls.ts': 'the raw client calls the API',
  'errorLines.ts': 'missing|contract|hint|connect',
  'responseValidators.ts': 'must have required property',
  'middlewareChain.ts': 'called next() twice in one attempt',
  'keyProvider.ts': 'did not settle within',
  'retryOptionsCheck.ts': 'retry.shouldRetry threw',
  'profileLookup.ts': 'profiles.json',
  'lostAnswerRecovery.ts': 'already started; reading its result',
  'answerChecker.ts': 'later mismatches of',
  'deprecation.ts': 'is deprecated in the API',
  'pollLoop.ts': "The wait's timeout must be",
  'answerReaders.ts': 'x-ratelimit-remaining',
};

describe('a bundle of the client (esbuild, code splitting)', () => {
  it('loads the span code, sign-in, the raw routing, the markdown/text error readers, the response validators, the middleware runner, key providers, retry-option checks, the profile file, lost-answer recovery, the answer checker, deprecation warnings and the poll loop only on first use, each as one self-contained chunk', async () => {
    const result = await build({
      entryPoints: { entry },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir: '/lazy-out',
      write: false,
      metafile: true,
      external: ['openapi-fetch', 'eventsource-parser', 'js-yaml'],
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    const text = (key: string) => result.outputFiles.find((file) => file.path.endsWith(key.replace(/^.*lazy-out/, '')))!.text;
    const { entryKey, initial: staticChunks } = initialChunks(outputs);
    // The client's code is one chunk: no module is shared with a lazy chunk.
    expect([...staticChunks]).toEqual([entryKey]);
    for (const [module, marker] of Object.entries(LAZY)) {
      const chunks = Object.keys(outputs).filter((key) => Object.keys(outputs[key]!.inputs).some((input) => input.endsWith(`/${module}`)));
      expect(chunks, module).toHaveLength(1);
      expect(staticChunks.has(chunks[0]!), `${module} is in a chunk loaded with the client`).toBe(false);
      expect(text(chunks[0]!), module).toContain(marker);
      expect(text(entryKey), `${module}'s code in the client's chunk`).not.toContain(marker);
    }
  });
});
