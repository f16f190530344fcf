import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { expect, it, vi } from 'vitest';
import { secretsManagerCallbackSecrets } from '../../../functions/aws/secrets-manager';

it('reads the secret document once per container within the cache age, for any application', async () => {
  const sm = mockClient(SecretsManagerClient);
  sm.on(GetSecretValueCommand).resolves({
    SecretString: JSON.stringify({
      'export-worker': ['old-secret-0123456789', 'new-secret-0123456789'],
    }),
  });
  const secrets = secretsManagerCallbackSecrets('arn:aws:secretsmanager:eu-west-1:1:secret:cb', 60);
  expect(await secrets.secretsFor('export-worker')).toEqual([
    'old-secret-0123456789',
    'new-secret-0123456789',
  ]);
  expect(await secrets.secretsFor('someone-else')).toEqual([]);
  expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  expect(sm.commandCalls(GetSecretValueCommand)[0]?.args[0].input.SecretId).toBe(
    'arn:aws:secretsmanager:eu-west-1:1:secret:cb',
  );
});

it('reads it again once the cache age has passed, so a rotation reaches every container', async () => {
  const sm = mockClient(SecretsManagerClient);
  sm.on(GetSecretValueCommand)
    .resolvesOnce({ SecretString: '{"app":["first-secret-0123456789"]}' })
    .resolves({ SecretString: '{"app":["first-secret-0123456789","second-secret-0123456789"]}' });
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    const secrets = secretsManagerCallbackSecrets(
      'arn:aws:secretsmanager:eu-west-1:1:secret:rotating',
      60,
    );
    expect(await secrets.secretsFor('app')).toHaveLength(1);
    vi.setSystemTime(Date.now() + 61_000);
    expect(await secrets.secretsFor('app')).toHaveLength(2);
  } finally {
    vi.useRealTimers();
  }
});
