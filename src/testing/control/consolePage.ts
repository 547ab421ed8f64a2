import { consoleScript } from './consoleScript.js';
import { CONSOLE_STYLE } from './console/style.js';
import { pageHeaders } from '../support/pageHeaders.js';

/** The console's address under the API's URL. */
export const CONSOLE_PATH = '/_oz/ui';

/**
 * The page's rules: its script and style sheet from this server only, its requests to this server only, no
 * inline script or style, no frames, no forms sent elsewhere, no base URL.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>oz-mock console</title>
<link rel="stylesheet" href="${CONSOLE_PATH}/console.css">
<script src="${CONSOLE_PATH}/console.js" defer></script>
</head>
<body>
<div id="console"><noscript>The console needs JavaScript (its one script comes from this server).</noscript></div>
</body>
</html>
`;

function asset(body: string, type: string): Response {
  return new Response(body, { status: 200, headers: pageHeaders(type, CONSOLE_CSP) });
}

/** `GET /_oz/ui`: the console's page (no data in it: the script reads everything with the admin token). */
export function consolePage(): Response {
  return asset(PAGE, 'text/html');
}

/** `GET /_oz/ui/console.js`. */
export function consoleScriptAnswer(): Response {
  return asset(consoleScript(), 'text/javascript');
}

/** `GET /_oz/ui/console.css`. */
export function consoleStyleAnswer(): Response {
  return asset(CONSOLE_STYLE, 'text/css');
}

/** The link oz-mock prints: the console with the admin token in the fragment (a browser never sends a fragment). */
export function consoleLink(url: string, adminToken: string): string {
  return `${url}${CONSOLE_PATH}#token=${adminToken}`;
}
