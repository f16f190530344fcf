import type { HttpEvent } from '../../../functions/api/types';
import { LOCAL_PRINCIPAL_HEADER } from '../../../functions/contract/local-stack';
import { type LocalPrincipal, readLocalPrincipal } from './principal';

/**
 * Turns a raw HTTP request into the API Gateway HTTP API (payload format 2.0) event the
 * deployed Lambda receives, so the local stack runs the handler with the same input shape.
 */

/** The header the local stack (and only the local stack) reads as the caller's identity. */
const PRINCIPAL_HEADER = LOCAL_PRINCIPAL_HEADER.toLowerCase();

const LOCAL_ACCOUNT_ID = '000000000000';
const LOCAL_API_ID = 'local';

export interface RawHttpRequest {
  readonly method: string;
  /** Request target as received: path plus optional `?query`. */
  readonly url: string;
  readonly httpVersion: string;
  /** Node's `rawHeaders`: alternating names and values, in arrival order. */
  readonly rawHeaders: readonly string[];
  readonly remoteAddress: string | undefined;
  readonly body: Buffer;
  readonly requestId: string;
  readonly receivedAt: Date;
}

/**
 * The event, and what `X-Principal-Id` said: a valid principal becomes the JWT authorizer's
 * `sub`; a malformed one none (the adapter answers 401 for routes that need one).
 */
export function buildHttpEvent(request: RawHttpRequest): {
  event: HttpEvent;
  principal: LocalPrincipal;
} {
  const { headers, principalValues, cookies } = collectHeaders(request.rawHeaders);
  const queryIndex = request.url.indexOf('?');
  const rawPath = queryIndex === -1 ? request.url : request.url.slice(0, queryIndex);
  const rawQueryString = queryIndex === -1 ? '' : request.url.slice(queryIndex + 1);
  const domainName = (headers.host ?? 'localhost').replace(/:\d+$/, '');
  const principal = readLocalPrincipal(principalValues);
  const sub = principal.kind === 'principal' ? principal.principal : undefined;

  const event: HttpEvent = {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers,
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: LOCAL_API_ID,
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method: request.method.toUpperCase(),
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: (request.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: request.requestId,
      routeKey: '$default',
      stage: '$default',
      time: formatRequestTime(request.receivedAt),
      timeEpoch: request.receivedAt.getTime(),
    },
    isBase64Encoded: false,
  };
  if (cookies.length > 0) event.cookies = cookies;
  const query = parseQuery(rawQueryString);
  if (query) event.queryStringParameters = query;
  if (sub) event.requestContext.authorizer = { jwt: { claims: { sub }, scopes: [] } };
  if (request.body.length > 0) {
    const text = isTextual(headers['content-type']) ? decodeUtf8(request.body) : undefined;
    event.body = text ?? request.body.toString('base64');
    event.isBase64Encoded = text === undefined;
  }
  return { event, principal };
}

/**
 * Lower-cases names and joins repeated headers with ",", as API Gateway does. Cookies move to
 * `cookies`; `X-Principal-Id` is taken out so the handler can only see it as an authorizer.
 */
function collectHeaders(rawHeaders: readonly string[]) {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const principalValues: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    const value = rawHeaders[i + 1] ?? '';
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((c) => c.trim())
          .filter(Boolean),
      );
    } else if (name === PRINCIPAL_HEADER) {
      // Two values are ambiguous: kept apart, so they are refused rather than joined.
      principalValues.push(value);
    } else {
      headers[name] = name in headers ? `${headers[name]},${value}` : value;
    }
  }
  return { headers, cookies, principalValues };
}

function parseQuery(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    params[key] = key in params ? `${params[key]},${value}` : value;
  }
  return Object.keys(params).length > 0 ? params : undefined;
}

const TEXTUAL = [
  /^text\//,
  /^application\/(?:[\w.+-]+\+)?json$/,
  /^application\/(?:[\w.+-]+\+)?xml$/,
  /^application\/(?:javascript|x-www-form-urlencoded|graphql)$/,
];

/** Text and JSON-like bodies pass as UTF-8 text; anything else (or no type) as base64. */
function isTextual(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType !== undefined && TEXTUAL.some((pattern) => pattern.test(mediaType));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(body: Buffer): string | undefined {
  try {
    return strictUtf8.decode(body);
  } catch {
    return undefined; // declared as text but not valid UTF-8: pass the bytes through untouched
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** API Gateway's `requestContext.time` format: `12/Mar/2020:19:03:58 +0000`. */
function formatRequestTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}
