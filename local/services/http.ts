import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ServiceConfig } from '../../functions/config';
import type { HttpHandler } from '../../functions/http/types';
import type { SecretMap } from '../../functions/secrets/callback-secrets';
import { serveApiReference } from '../api-reference';
import { startHttpServer } from '../http-adapter';
import type { Lifecycle } from './lifecycle';
import { assertPortFree } from './ports';

export const HTTP_HOST = '127.0.0.1';

export interface HttpServiceOptions {
  readonly port: number;
  readonly dynamoClient: DynamoDBClient;
  readonly config: ServiceConfig;
  /** Signing secrets per application, as settings parsed them from CALLBACK_SECRETS. */
  readonly callbackSecrets: SecretMap;
  readonly log: (line: string) => void;
}

/** Checks the HTTP port early, before slower services start on a port that is taken. */
export function reserveHttpPort(port: number): Promise<void> {
  return assertPortFree(port, 'PORT', HTTP_HOST);
}

/** The HTTP API: the app's Lambda handler behind the API Gateway v2 adapter. */
export async function startHttpService(
  lifecycle: Lifecycle,
  options: HttpServiceOptions,
): Promise<{ url: string }> {
  const handler = await loadHandler(options);
  lifecycle.signal.throwIfAborted();
  const server = await startHttpServer(handler, options.port, HTTP_HOST, {
    log: options.log,
    pages: serveApiReference,
  });
  lifecycle.defer('HTTP server', () => server.close());
  return { url: server.url };
}

/** Loaded lazily so a broken app is reported as a startup error and the stack still cleans up. */
async function loadHandler(options: HttpServiceOptions): Promise<HttpHandler> {
  try {
    const { buildHttpHandler } = await import('./http-app');
    return buildHttpHandler({
      dynamoClient: options.dynamoClient,
      config: options.config,
      callbackSecrets: options.callbackSecrets,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`could not build the HTTP app (local/services/http-app.ts): ${reason}`, {
      cause: error,
    });
  }
}
