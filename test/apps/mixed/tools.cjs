// The app's CommonJS module: it makes its client with require('oz-sdk'), so it runs the package's CommonJS build
// while the app's ES modules import the ES module build.
const sdk = require('oz-sdk');

let client;

/** Executes a tool with the module's client, made on first use from OZ_BASE_URL and OZ_API_KEY. */
function execute(tool) {
  client ??= new sdk.Oz({ maxRetries: 0 });
  return client.tools.execute(tool, { text: 'mixed' });
}

/** Which of the error classes of `classes` (a build's exports: this module's by default) `error` is an instance of. */
function classesOf(error, classes = sdk) {
  const names = ['OzError', 'OzAPIError', 'Http404Error', 'ToolNotFoundError', 'RateLimitedError', 'OzUsageError'];
  return Object.fromEntries(names.map((name) => [name, error instanceof classes[name]]));
}

module.exports = { execute, classesOf, OzError: sdk.OzError };
