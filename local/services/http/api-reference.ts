import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DOCUMENT_ROUTES } from '../../../functions/api/document/spec';
import { DEMO_PRINCIPAL } from '../../../functions/contract/local-stack';
import { LOCAL_SECURITY_SCHEME } from './local-document';

/**
 * `GET /docs`: an interactive reference (Swagger UI) of the service's own OpenAPI document.
 * Every file comes from the `swagger-ui-dist` package in node_modules, so it works without
 * internet. Local stack only: a deployed API serves `/v1/openapi.json` and no UI.
 */
export const API_REFERENCE_PATH = '/docs';
const OPENAPI_PATH = DOCUMENT_ROUTES.getOpenApi.path;
/** Resolved like an import, so it follows npm's layout (the package ships no types). */
const SWAGGER_UI_DIR = dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

/** The only package files served (a fixed list: no path from the request reaches the disk). */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>idempotent-ledger API reference</title>
  <link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
  <link rel="stylesheet" href="${API_REFERENCE_PATH}/index.css">
  <link rel="icon" type="image/png" href="${API_REFERENCE_PATH}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
  <script src="${API_REFERENCE_PATH}/swagger-ui-standalone-preset.js"></script>
  <script src="${API_REFERENCE_PATH}/init.js"></script>
</body>
</html>
`;

// Same origin as the API, so "Try it out" calls the local stack itself, as the demo principal
// (the local document's API-key scheme for X-Principal-Id; "Authorize" changes it).
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  onComplete: () => window.ui.preauthorizeApiKey(${JSON.stringify(LOCAL_SECURITY_SCHEME)}, ${JSON.stringify(DEMO_PRINCIPAL)}),
});
`;

/** Answers `/docs` and its assets; returns false for any other request (the API handles it). */
export async function serveApiReference(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const path = new URL(req.url ?? '/', 'http://local').pathname;
  if (path !== API_REFERENCE_PATH && !path.startsWith(`${API_REFERENCE_PATH}/`)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'text/plain; charset=utf-8', 'GET only', { allow: 'GET, HEAD' });
    return true;
  }
  const name = path.slice(API_REFERENCE_PATH.length + 1);
  if (name === '' || name === 'index.html') {
    send(res, 200, 'text/html; charset=utf-8', PAGE);
  } else if (name === 'init.js') {
    send(res, 200, 'text/javascript; charset=utf-8', INIT);
  } else if (Object.hasOwn(ASSETS, name)) {
    const body = await readFile(join(SWAGGER_UI_DIR, name));
    send(res, 200, ASSETS[name] ?? 'application/octet-stream', body);
  } else {
    send(res, 404, 'text/plain; charset=utf-8', 'not found');
  }
  return true;
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, {
    'content-type': type,
    'content-length': String(bytes.length),
    'cache-control': 'no-cache',
    ...extra,
  });
  res.end(res.req?.method === 'HEAD' ? undefined : bytes);
}
