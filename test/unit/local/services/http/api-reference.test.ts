import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../../../functions/api/types';
import {
  type RunningHttpServer,
  startHttpServer,
} from '../../../../../local/services/http/adapter';
import { serveApiReference } from '../../../../../local/services/http/api-reference';

let server: RunningHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const swaggerUiDir = dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

/** The adapter with the reference pages in front of an API that answers every request 418. */
async function serve() {
  const apiPaths: string[] = [];
  const handler: HttpHandler = async (event) => {
    apiPaths.push(event.rawPath);
    return { statusCode: 418, headers: {}, body: '' };
  };
  server = await startHttpServer(handler, 0, '127.0.0.1', { pages: serveApiReference });
  return { url: server.url, apiPaths };
}

describe('the local API reference at /docs', () => {
  it('serves a page that loads Swagger UI from /docs and points it at the OpenAPI document', async () => {
    const { url, apiPaths } = await serve();

    const page = await fetch(`${url}/docs`);
    const init = await fetch(`${url}/docs/init.js`);

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('src="/docs/swagger-ui-bundle.js"');
    expect(html).not.toMatch(/https?:\/\//); // nothing from a CDN
    expect(await init.text()).toContain('url: "/v1/openapi.json"');
    expect(apiPaths).toEqual([]);
  });

  it.each([
    ['swagger-ui-bundle.js', /^text\/javascript/],
    ['swagger-ui.css', /^text\/css/],
  ])('serves %s byte for byte from the swagger-ui-dist package', async (name, type) => {
    const { url } = await serve();

    const res = await fetch(`${url}/docs/${name}`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(readFileSync(join(swaggerUiDir, name)))).toBe(true);
  });

  it.each(['/docs/package.json', '/docs/..%2Fpackage.json', '/docs/oauth2-redirect.html'])(
    'answers 404 for %s (only listed assets are served)',
    async (path) => {
      const { url } = await serve();

      expect((await fetch(`${url}${path}`)).status).toBe(404);
    },
  );

  it('rejects other methods and leaves every other path to the API', async () => {
    const { url, apiPaths } = await serve();

    const post = await fetch(`${url}/docs`, { method: 'POST' });
    const api = await fetch(`${url}/v1/openapi.json`);
    const lookalike = await fetch(`${url}/docsx`);

    expect(post.status).toBe(405);
    expect(api.status).toBe(418);
    expect(lookalike.status).toBe(418);
    expect(apiPaths).toEqual(['/v1/openapi.json', '/docsx']);
  });
});
