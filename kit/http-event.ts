import { randomUUID } from 'node:crypto';
import type { HttpEvent } from '../functions/api/types';

export interface EventOptions {
  principal?: string;
  iamArn?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  query?: Record<string, string>;
  idempotencyKey?: string;
}

/** A real-shaped API Gateway HTTP API (payload v2) event, as the JWT authorizer delivers it. */
export function httpEvent(method: string, path: string, options: EventOptions = {}): HttpEvent {
  const body =
    options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey }),
    ...options.headers,
  };
  const authorizer = options.principal
    ? { jwt: { claims: { sub: options.principal }, scopes: [] } }
    : options.iamArn
      ? { iam: { userArn: options.iamArn } }
      : undefined;
  const rawQueryString = new URLSearchParams(options.query ?? {}).toString();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString,
    headers,
    ...(options.query ? { queryStringParameters: options.query } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
      ...(authorizer ? { authorizer } : {}),
    },
    isBase64Encoded: false,
    ...(body === undefined ? {} : { body }),
  };
}
