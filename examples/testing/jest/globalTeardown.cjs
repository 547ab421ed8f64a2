module.exports = async function globalTeardown() {
  const { server, listener } = globalThis.__OZ_MOCK__;
  await listener.close();
  await server.close();
};
