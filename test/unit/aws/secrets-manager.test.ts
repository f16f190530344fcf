import { expect, it } from 'vitest';
import {
  secretStringReader,
  secretsManagerCallbackSecrets,
  secretsManagerEndpoint,
} from '../../../functions/aws/secrets-manager';
import { deployedWebhookSecurity } from '../../../functions/aws/webhook-security';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:cb-AbCdEf';

/** A fake Secrets Manager: answers each call with the next document, records the requests. */
function fakeSecretsManager(...documents: (string | number)[]) {
  const calls: { url: string; headers: Record<string, string>; body: unknown }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({
      url,
      headers: init.headers as Record<string, string>,
      body: JSON.parse(String(init.body)),
    });
    const next = documents[Math.min(calls.length, documents.length) - 1];
    return typeof next === 'number'
      ? new Response('{"__type":"InternalServiceError"}', { status: next })
      : Response.json({ ARN, SecretString: next });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

it('signs one GetSecretValue to the endpoint of the ARN, once per container within the cache age', async () => {
  const sm = fakeSecretsManager(
    JSON.stringify({ 'export-worker': ['old-secret-0123456789', 'new-secret-0123456789'] }),
  );
  const secrets = secretsManagerCallbackSecrets(ARN, 60, { credentials, fetch: sm.fetch });
  expect(await secrets.secretsFor('export-worker')).toEqual([
    'old-secret-0123456789',
    'new-secret-0123456789',
  ]);
  expect(await secrets.secretsFor('someone-else')).toEqual([]);
  expect(sm.calls).toHaveLength(1);
  const [call] = sm.calls;
  expect(call?.url).toBe('https://secretsmanager.eu-west-1.amazonaws.com/');
  expect(call?.body).toEqual({ SecretId: ARN });
  expect(call?.headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
  expect(call?.headers['content-type']).toBe('application/x-amz-json-1.1');
  expect(call?.headers.authorization).toMatch(
    /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/secretsmanager\/aws4_request, SignedHeaders=.*x-amz-target.*, Signature=[0-9a-f]{64}$/,
  );
});

it('reads it again once the cache age has passed, so a rotation reaches every container', async () => {
  const sm = fakeSecretsManager(
    '{"app":["first-secret-0123456789"]}',
    '{"app":["first-secret-0123456789","second-secret-0123456789"]}',
  );
  let now = 1_000_000;
  const secrets = secretsManagerCallbackSecrets(ARN, 60, {
    credentials,
    fetch: sm.fetch,
    now: () => now,
  });
  expect(await secrets.secretsFor('app')).toHaveLength(1);
  now += 59_000;
  expect(await secrets.secretsFor('app')).toHaveLength(1);
  now += 2_000;
  expect(await secrets.secretsFor('app')).toHaveLength(2);
  expect(sm.calls).toHaveLength(2);
});

it('shares one call between concurrent readers and does not keep a failed read', async () => {
  const sm = fakeSecretsManager(500, 'the-value');
  const read = secretStringReader(ARN, 60, { credentials, fetch: sm.fetch });
  const [a, b] = await Promise.allSettled([read(), read()]);
  expect(a.status).toBe('rejected');
  expect(b).toEqual(a);
  expect(String((a as PromiseRejectedResult).reason)).toMatch(/answered 500/);
  expect(await read()).toBe('the-value');
  expect(sm.calls).toHaveLength(2);
});

it('turns an unreadable secret into 503-worthy errors, never quoting the answer', async () => {
  const sm = fakeSecretsManager(500);
  const secrets = secretsManagerCallbackSecrets(ARN, 60, { credentials, fetch: sm.fetch });
  await expect(secrets.secretsFor('app')).rejects.toMatchObject({ code: 'unavailable' });
  const short = fakeSecretsManager('too-short');
  const security = deployedWebhookSecurity(ARN, { credentials, fetch: short.fetch });
  await expect(security.sealer.seal('whsec_x')).rejects.toMatchObject({ code: 'unavailable' });
});

it('finds the endpoint from the ARN: region and partition', () => {
  expect(secretsManagerEndpoint(ARN)).toEqual({
    region: 'eu-west-1',
    endpoint: 'https://secretsmanager.eu-west-1.amazonaws.com',
  });
  expect(secretsManagerEndpoint('arn:aws-cn:secretsmanager:cn-north-1:1:secret:x').endpoint).toBe(
    'https://secretsmanager.cn-north-1.amazonaws.com.cn',
  );
});
