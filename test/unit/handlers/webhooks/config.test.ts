import { describe, expect, it } from 'vitest';
import { DEPLOYED_WEBHOOK_RETRIES } from '../../../../functions/contract/webhooks';
import {
  loadWebhookHttpSettings,
  loadWebhooksConfig,
  WEBHOOK_SETTINGS,
} from '../../../../functions/handlers/webhooks/config';

const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/ledger-webhooks';
const KEY = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:sealing';

describe('webhook configuration', () => {
  it('reads the delivery function: shared settings, its queue, key, stage and retry schedule', () => {
    const config = loadWebhooksConfig({
      TABLE_NAME: 't',
      WEBHOOK_QUEUE_URL: QUEUE,
      WEBHOOK_SEALING_KEY_ARN: KEY,
      STAGE: 'prod',
      WEBHOOK_DISABLE_AFTER_FAILURES: '7',
    });
    expect(config).toMatchObject({
      tableName: 't',
      webhookQueueUrl: QUEUE,
      webhookSealingKeyArn: KEY,
      stage: 'prod',
      retries: DEPLOYED_WEBHOOK_RETRIES,
      disableAfterFailures: 7,
    });
    expect(WEBHOOK_SETTINGS).toContain('WEBHOOK_RETRY_WINDOW_SECONDS');
  });

  it('refuses in sentences naming each variable', () => {
    expect(() =>
      loadWebhookHttpSettings({
        WEBHOOK_QUEUE_URL: 'nope',
        WEBHOOK_SEALING_KEY_ARN: 'arn:aws:kms:x',
      }),
    ).toThrow(
      'Invalid configuration: WEBHOOK_QUEUE_URL must be the queue URL (got "nope"). WEBHOOK_SEALING_KEY_ARN must be a Secrets Manager secret ARN (got "arn:aws:kms:x").',
    );
    expect(() =>
      loadWebhooksConfig({
        TABLE_NAME: 't',
        WEBHOOK_QUEUE_URL: QUEUE,
        WEBHOOK_SEALING_KEY_ARN: KEY,
        STAGE: 'prod',
        WEBHOOK_RETRY_WINDOW_SECONDS: '10',
      }),
    ).toThrow('WEBHOOK_RETRY_WINDOW_SECONDS must be a whole number from 60 to 259200 (got "10")');
  });
});
