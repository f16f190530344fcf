import type { IncomingMessage, ServerResponse } from 'node:http';
import { routeMatcher } from '../../../functions/api/router';
import { ROUTE_LIST } from '../../../functions/api/routes';
import { needsPrincipal } from '../../../functions/api/spec';
import type { HttpHandler } from '../../../functions/api/types';
import type { Lifecycle } from '../lifecycle';
import { assertPortFree } from '../ports';
import { startHttpServer } from './adapter';
import { serveApiReference } from './api-reference';
import { withLocalDocument } from './local-document';

const HTTP_HOST = '127.0.0.1';

export interface HttpServiceOptions {
  readonly port: number;
  /** The HTTP function, as local/functions.ts composes it. */
  readonly handler: HttpHandler;
  readonly log: (line: string) => void;
  /**
   * More pages beside the API reference (the operator console at /console): resolves true when
   * it answered the request. @default none
   */
  readonly pages?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

/** Checks the HTTP port early, before slower services start on a port that is taken. */
export function reserveHttpPort(port: number): Promise<void> {
  return assertPortFree(port, 'PORT', HTTP_HOST);
}

/** The HTTP API: the function's Lambda handler behind the API Gateway v2 adapter. */
export async function startHttpService(
  lifecycle: Lifecycle,
  options: HttpServiceOptions,
): Promise<{ url: string }> {
  lifecycle.signal.throwIfAborted();
  const match = routeMatcher(ROUTE_LIST);
  const server = await startHttpServer(
    withLocalDocument(options.handler),
    options.port,
    HTTP_HOST,
    {
      log: options.log,
      pages: async (req, res) =>
        (await serveApiReference(req, res)) || ((await options.pages?.(req, res)) ?? false),
      needsPrincipal: (method, path) => {
        const found = match(method, path);
        return found !== undefined && needsPrincipal(found.route);
      },
    },
  );
  lifecycle.defer('HTTP server', () => server.close());
  return { url: server.url };
}
