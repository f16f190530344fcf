import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLedgerClient, type LedgerAuth } from '../../../client/index';
import { sigV4Middleware } from '../../../client/sigv4';

/** A fetch that records each request and answers 201 with an account. */
function recordingFetch() {
  const requests: Request[] = [];
  const fetchImpl = (async (input: Request) => {
    requests.push(input.clone());
    return new Response(
      JSON.stringify({ id: 'a1', currency: 'EUR', balance: 0, createdAt: 'x', updatedAt: 'x' }),
      {
        status: 201,
        headers: { 'content-type': 'application/json', 'Idempotent-Replayed': 'true' },
      },
    );
  }) as typeof fetch;
  return { requests, fetchImpl };
}

async function createAccount(auth: LedgerAuth) {
  const { requests, fetchImpl } = recordingFetch();
  const client = createLedgerClient({
    baseUrl: 'https://api.example.test/',
    auth,
    fetch: fetchImpl,
  });
  const answer = await client.POST('/v1/accounts', {
    params: { header: { 'Idempotency-Key': 'key-1' } },
    body: { currency: 'EUR', name: 'Alice' },
  });
  const request = requests[0];
  if (!request) throw new Error('no request was sent');
  return { answer, request };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('typed client', () => {
  it('sends the typed route, the Idempotency-Key header and the JSON body', async () => {
    const { answer, request } = await createAccount({ kind: 'none' });

    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://api.example.test/v1/accounts');
    expect(request.headers.get('idempotency-key')).toBe('key-1');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(await request.json()).toEqual({ currency: 'EUR', name: 'Alice' });
    expect(answer.response.status).toBe(201);
    expect(answer.data?.currency).toBe('EUR');
  });

  it('local: sends X-Principal-Id', async () => {
    const { request } = await createAccount({ kind: 'local', principal: 'alice' });

    expect(request.headers.get('x-principal-id')).toBe('alice');
    expect(request.headers.get('authorization')).toBeNull();
  });

  it('jwt: asks for the token on each request and sends it as a bearer', async () => {
    let calls = 0;
    const { request } = await createAccount({ kind: 'jwt', token: async () => `token-${++calls}` });

    expect(request.headers.get('authorization')).toBe('Bearer token-1');
    expect(calls).toBe(1);
  });

  it('iam: signs method, host, path, query and body with SigV4 for execute-api', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-30T12:00:00Z'), toFake: ['Date'] });
    const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret-example' };
    const { request } = await createAccount({ kind: 'iam', region: 'eu-west-1', credentials });

    const authorization = request.headers.get('authorization') ?? '';
    expect(authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261130\/eu-west-1\/execute-api\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(request.headers.get('x-amz-date')).toBe('20261130T120000Z');
  });

  it('iam: reproduces the AWS SigV4 test suite vector "get-vanilla"', async () => {
    vi.useFakeTimers({ now: new Date('2015-08-30T12:36:00Z'), toFake: ['Date'] });
    const middleware = sigV4Middleware({
      region: 'us-east-1',
      service: 'service',
      credentials: {
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      },
    });
    const onRequest = middleware.onRequest;
    if (!onRequest) throw new Error('no onRequest');

    const signed = await onRequest({
      request: new Request('https://example.amazonaws.com/'),
    } as Parameters<typeof onRequest>[0]);

    expect(signed instanceof Request && signed.headers.get('authorization')).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, ' +
        'SignedHeaders=host;x-amz-date, ' +
        'Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  it('iam: a different body gives a different signature', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-30T12:00:00Z'), toFake: ['Date'] });
    const auth: LedgerAuth = {
      kind: 'iam',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret-example' },
    };
    const { requests, fetchImpl } = recordingFetch();
    const client = createLedgerClient({
      baseUrl: 'https://api.example.test',
      auth,
      fetch: fetchImpl,
    });
    for (const name of ['Alice', 'Bob']) {
      await client.POST('/v1/accounts', {
        params: { header: { 'Idempotency-Key': 'key-1' } },
        body: { currency: 'EUR', name },
      });
    }

    const [first, second] = requests.map((r) => r.headers.get('authorization'));
    expect(first).not.toBe(second);
  });
});
