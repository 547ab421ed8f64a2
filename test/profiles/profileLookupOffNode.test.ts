/** `#profile-file` off Node (src/profiles/profileLookupOffNode.ts): no profile is read, so no profile gives a key. */
import { describe, expect, it } from 'vitest';
import { OzUsageError } from '../../src/core/errors/errors.js';
import { profileKey } from '../../src/profiles/profileLookupOffNode.js';

describe('the profile file off Node', () => {
  it('gives no key: the "No API key" OzUsageError, whatever the environment names', async () => {
    const env = { OZ_CONFIG_DIR: '/somewhere', OZ_PROFILE: 'prod' };
    const error = await profileKey({}, env, 'https://api.example', OzUsageError).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/^No API key: pass `apiKey` or set OZ_API_KEY \(this runtime has no Node modules/);
  });
});
