import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpEvent, HttpHandler, HttpResult } from '../../../../../functions/api/types';
import {
  type RunningHttpServer,
  startHttpServer,
} from '../../../../../local/services/http/adapter';

const ok: HttpResult = {
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: '{}',
};

let server: RunningHttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Starts the adapter on a free port with a handler that records every event it receives. */
async function serve(
  respond: (event: HttpEvent) => Promise<HttpResult> = async () => ok,
  needsPrincipal?: (method: string, path: string) => boolean,
) {
  const events: HttpEvent[] = [];
  const logs: string[] = [];
  const handler: HttpHandler = (event) => {
    events.push(event);
    return respond(event);
  };
  server = await startHttpServer(handler, 0, '127.0.0.1', {
    maxBodyBytes: 1024,
    log: (line) => logs.push(line),
    ...(needsPrincipal ? { needsPrincipal } : {}),
  });
  return { url: server.url, events, logs };
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http instead of fetch: it can send a header twice and an arbitrary raw target. */
function send(
  url: string,
  path: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: Buffer | string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}${path}`,
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function only(events: HttpEvent[]): HttpEvent {
  expect(events).toHaveLength(1);
  const [event] = events;
  if (!event) throw new Error('no event');
  return event;
}

describe('local HTTP adapter', () => {
  it('builds a payload v2 event with the API Gateway request context', async () => {
    const { url, events } = await serve();

    await send(url, '/v1/accounts/a1?limit=5', { headers: { 'User-Agent': 'test-agent/1' } });

    const event = only(events);
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: '$default',
      rawPath: '/v1/accounts/a1',
      rawQueryString: 'limit=5',
      isBase64Encoded: false,
      requestContext: {
        accountId: expect.any(String),
        apiId: expect.any(String),
        domainName: '127.0.0.1',
        routeKey: '$default',
        stage: '$default',
        http: {
          method: 'GET',
          path: '/v1/accounts/a1',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'test-agent/1',
        },
      },
    });
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(event.requestContext.time).toMatch(
      /^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/,
    );
    expect(Math.abs(event.requestContext.timeEpoch - Date.now())).toBeLessThan(10_000);
    expect(event.body).toBeUndefined();
    expect(event.requestContext.authorizer).toBeUndefined();
  });

  it.each([
    ['alice', 'alice'],
    ['svc:payments@example.com', 'svc:payments@example.com'],
    ['a.b_c-d', 'a.b_c-d'],
    ['x'.repeat(128), 'x'.repeat(128)],
  ])('maps X-Principal-Id %s to a JWT authorizer sub', async (header, sub) => {
    const { url, events } = await serve();

    await send(url, '/v1/accounts', { headers: { 'X-Principal-Id': header } });

    const event = only(events);
    expect(event.requestContext.authorizer).toEqual({ jwt: { claims: { sub }, scopes: [] } });
    expect(event.headers['x-principal-id']).toBeUndefined();
  });

  it.each([
    ['empty', '', /X-Principal-Id is empty/],
    ['too long', 'x'.repeat(129), /X-Principal-Id is 129 characters long; at most 128/],
    ['a space', 'alice bob', /X-Principal-Id contains " " at position 6/],
    ['a slash', 'alice/bob', /X-Principal-Id contains "\/" at position 6/],
    ['non-ASCII', 'alicé', /X-Principal-Id contains "é" at position 5/],
  ])(
    'answers 401 itself, saying what is wrong, for an X-Principal-Id with %s on a route that needs a principal',
    async (_label, header, detail) => {
      const { url, events } = await serve(undefined, () => true);

      const res = await send(url, '/v1/accounts', { headers: { 'X-Principal-Id': header } });

      expect(events).toHaveLength(0);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toBe('application/problem+json');
      const problem = JSON.parse(res.body.toString());
      expect(problem).toMatchObject({ status: 401, code: 'unauthenticated' });
      expect(problem.detail).toMatch(detail);
      expect(problem.detail).toContain('1-128 characters of A-Z a-z 0-9 . _ : @ -');
    },
  );

  it('answers 401 when X-Principal-Id is sent twice on a route that needs a principal', async () => {
    const { url, events } = await serve(undefined, () => true);

    const res = await send(url, '/v1/accounts', {
      headers: { 'X-Principal-Id': ['alice', 'bob'] },
    });

    expect(events).toHaveLength(0);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body.toString()).detail).toMatch(/X-Principal-Id was sent 2 times/);
  });

  it('hands a public route a malformed X-Principal-Id as no authorizer at all', async () => {
    const { url, events } = await serve(undefined, () => false);

    await send(url, '/', { headers: { 'X-Principal-Id': ['alice', 'bob'] } });
    await send(url, '/', { headers: { 'X-Principal-Id': 'alice bob' } });

    expect(events).toHaveLength(2);
    expect(events.map((e) => e.requestContext.authorizer)).toEqual([undefined, undefined]);
  });

  it('leaves a missing X-Principal-Id to the handler', async () => {
    const { url, events } = await serve(undefined, () => true);

    await send(url, '/v1/accounts');

    expect(only(events).requestContext.authorizer).toBeUndefined();
  });

  it('parses the query string, joining repeated parameters with commas', async () => {
    const { url, events } = await serve();

    await send(url, '/v1/accounts/a1/transactions?limit=10&cursor=abc%3D%3D&tag=a&tag=b&flag');

    const event = only(events);
    expect(event.rawPath).toBe('/v1/accounts/a1/transactions');
    expect(event.rawQueryString).toBe('limit=10&cursor=abc%3D%3D&tag=a&tag=b&flag');
    expect(event.queryStringParameters).toEqual({
      limit: '10',
      cursor: 'abc==',
      tag: 'a,b',
      flag: '',
    });
  });

  it('omits queryStringParameters when there is no query string', async () => {
    const { url, events } = await serve();

    await send(url, '/v1/openapi.json');

    const event = only(events);
    expect(event.rawQueryString).toBe('');
    expect(event.queryStringParameters).toBeUndefined();
  });

  it('lower-cases header names, joins duplicates with commas and moves cookies', async () => {
    const { url, events } = await serve();

    await send(url, '/', {
      headers: { 'X-Custom': ['one', 'two'], 'Idempotency-Key': 'k1', Cookie: 'a=1; b=2' },
    });

    const event = only(events);
    expect(event.headers['x-custom']).toBe('one,two');
    expect(event.headers['idempotency-key']).toBe('k1');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.cookies).toEqual(['a=1', 'b=2']);
  });

  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['application/problem+json', true],
    ['text/plain', true],
    ['application/x-www-form-urlencoded', true],
    ['application/octet-stream', false],
    ['image/png', false],
    [undefined, false],
  ])('passes a %s body as text: %s', async (contentType, asText) => {
    const { url, events } = await serve();
    const body = '{"currency":"EUR","name":"Zoë"}';
    const headers: OutgoingHttpHeaders = contentType ? { 'Content-Type': contentType } : {};

    await send(url, '/v1/accounts', { method: 'POST', headers, body });

    const event = only(events);
    expect(event.isBase64Encoded).toBe(!asText);
    expect(event.body).toBe(asText ? body : Buffer.from(body).toString('base64'));
  });

  it('base64-encodes a JSON-typed body that is not valid UTF-8', async () => {
    const { url, events } = await serve();
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);

    await send(url, '/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: bytes,
    });

    const event = only(events);
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body ?? '', 'base64')).toEqual(bytes);
  });

  it('writes the handler result back: status, headers, body and cookies', async () => {
    const { url } = await serve(async () => ({
      statusCode: 201,
      headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' },
      cookies: ['session=abc; HttpOnly'],
      body: '{"id":"a1"}',
    }));

    const res = await send(url, '/v1/accounts', { method: 'POST' });

    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.headers['set-cookie']).toEqual(['session=abc; HttpOnly']);
    expect(res.headers['apigw-requestid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.toString()).toBe('{"id":"a1"}');
  });

  it('decodes a base64 result body', async () => {
    const bytes = Buffer.from([0, 1, 2, 250]);
    const { url } = await serve(async () => ({
      statusCode: 200,
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes.toString('base64'),
      isBase64Encoded: true,
    }));

    const res = await send(url, '/');

    expect(res.body).toEqual(bytes);
  });

  it('answers 500 problem+json without the error details when the handler throws', async () => {
    const { url, logs } = await serve(async () => {
      throw new Error('TransactionCanceledException on table ledger-prod');
    });

    const res = await send(url, '/v1/accounts');

    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('application/problem+json');
    const text = res.body.toString();
    expect(JSON.parse(text)).toEqual({
      type: expect.stringContaining('internal'),
      title: expect.any(String),
      status: 500,
      detail: expect.any(String),
      code: 'internal',
    });
    expect(text).not.toMatch(/Transaction|ledger-prod|at /);
    expect(logs.join('\n')).toContain('ledger-prod'); // the operator still sees the cause
  });

  it('answers 500 when the handler returns something that is not a result', async () => {
    const { url } = await serve(async () => undefined as unknown as HttpResult);

    const res = await send(url, '/');

    expect(res.status).toBe(500);
    expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'internal' });
  });

  it('answers 500 and keeps serving when the result cannot be written', async () => {
    let calls = 0;
    const { url } = await serve(async () => {
      calls += 1;
      return calls === 1 ? { statusCode: 200, headers: { 'x-bad': 'line\nbreak' }, body: '' } : ok;
    });

    const bad = await send(url, '/');
    const good = await send(url, '/');

    expect(bad.status).toBe(500);
    expect(JSON.parse(bad.body.toString())).toMatchObject({ code: 'internal' });
    expect(good.status).toBe(200);
  });

  it('answers 413 itself, without calling the handler, above the body cap', async () => {
    const { url, events } = await serve();

    const res = await send(url, '/v1/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: 'x'.repeat(1025),
    });

    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(res.body.toString())).toMatchObject({
      status: 413,
      code: 'payload_too_large',
    });
    expect(events).toHaveLength(0);
  });

  it('counts a chunked body without Content-Length against the cap', async () => {
    const { url, events } = await serve();

    const res = await send(url, '/', {
      method: 'POST',
      headers: { 'Transfer-Encoding': 'chunked' },
      body: 'y'.repeat(2048),
    });

    expect(res.status).toBe(413);
    expect(events).toHaveLength(0);
  });

  it('passes a body at the cap to the handler', async () => {
    const { url, events } = await serve();

    const res = await send(url, '/', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'z'.repeat(1024),
    });

    expect(res.status).toBe(200);
    expect(only(events).body).toHaveLength(1024);
  });
});
