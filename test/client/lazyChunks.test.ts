/**
 * What a program that only makes calls loads: the code of the optional parts (`OptionalPart` of
 * src/core/shared/optionalPart.ts: OpenTelemetry spans, the command-line sign-in, the response validators, the profile
 * file, the raw client; the YAML reader is a package of its own) sits in chunks of their own, imported on first use, each shared
 * with nothing else (esbuild would split a shared module into a chunk of its own, loaded with the client).
 * Everything else is loaded with the client.
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
  'responseValidators.ts': 'must have required property',
  'profileLookup.ts': 'profiles.json',
  'rawCalls.ts': 'the raw client calls the API',
};

describe('a bundle of the client (esbuild, code splitting)', () => {
  it('loads the span code, sign-in, the response validators, the profile file and the raw client only on first use, each as one self-contained chunk', async () => {
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
