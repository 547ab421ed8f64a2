// jest's global setup: one oz-mock for the whole run, on a real port. Each test file takes a session of its own
// (see ozMock.jest.ts), so parallel workers never share state, journal or faults.
const { createOzServer } = require('oz-sdk/testing');

module.exports = async function globalSetup() {
  const server = createOzServer();
  const listener = await server.listen();
  globalThis.__OZ_MOCK__ = { server, listener }; // for the teardown (same process)
  process.env.OZ_MOCK_URL = listener.url; // the workers inherit the environment
  process.env.OZ_MOCK_ADMIN_TOKEN = server.adminToken;
};
