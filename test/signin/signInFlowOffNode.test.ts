/** `#sign-in` off Node (src/signin/signInFlowOffNode.ts): what a bundle for an Edge route, a Worker or a browser runs. */
import { describe, expect, it } from 'vitest';
import { OzUsageError } from '../../src/core/errors/errors.js';
import { escapedControls } from '../../src/core/shared/printable.js';
import { inProcessAddressMiss } from '../../src/core/shared/inProcessAddress.js';
import { boundedText } from '../../src/core/shared/boundedText.js';
import { SIGN_IN_CODE_VALIDITY_MS } from '../../src/signin/signIn.js';
import { SignInError } from '../../src/signin/signInError.js';
import { runSignIn } from '../../src/signin/signInFlowOffNode.js';

describe('sign-in off Node', () => {
  it('is an OzUsageError that says it needs Node and where the key goes instead, before any request', async () => {
    let fetched = false;
    const fetch = async () => ((fetched = true), new Response('{}'));
    const error = await runSignIn(
      { dashboardURL: 'https://dashboard.example', fetch },
      { SignInError, UsageError: OzUsageError, codeValidityMs: SIGN_IN_CODE_VALIDITY_MS, inProcessAddressMiss, escapedControls, boundedText },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/^signIn\(\) needs Node\.js: .*`apiKey` or OZ_API_KEY/);
    expect(fetched).toBe(false);
  });
});
