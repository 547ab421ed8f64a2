/**
 * One session of the run's oz-mock per test file (with ozMockGlobalSetup.ts as the run's `globalSetup`): every
 * file, in whichever worker it runs, has a world of its own (state, journal, faults, stubs, clock) and resets it
 * before every test without touching another file's.
 */
// #region use-session
import { afterAll, beforeEach, inject } from 'vitest';
import { connectOzMock, type OzMockSession } from 'oz-sdk/testing';

export async function useOzSession(): Promise<OzMockSession> {
  const { url, adminToken } = inject('ozMock'); // from the global setup
  const session = await connectOzMock({ url, adminToken }).session();
  beforeEach(() => session.reset()); // back to the baseline: this session's data, journal, faults and stubs only
  afterAll(() => session.close());
  return session;
}

// In a test file:
//   const session = await useOzSession();
//   const oz = new Oz({ baseURL: session.url, apiKey: session.apiKey, maxRetries: 0 });
// #endregion
