import { describe, expect, it } from 'vitest';
import { LOCAL_TRIGGERS } from '../../../local/functions';
import { readLocalSettings } from '../../../local/settings';
import type { QueueTrigger } from '../../../local/triggers/trigger';

const queue = (name: string) => ({ name, url: `http://q/${name}`, arn: `arn:q:${name}` });

/** The longest wait before the n-th retry (full jitter below it), as docs/webhooks.md states. */
const longestWait = (n: number, base: number, max: number) => Math.min(max, base * 2 ** (n - 1));

describe('npm start runs webhook delivery (docs/contract.md §32, §36)', () => {
  it('retries locally three times within 30 s by default', () => {
    const { retries } = readLocalSettings({}).webhooks;
    const three = [1, 2, 3].map((n) =>
      longestWait(n, retries.baseDelaySeconds, retries.maxDelaySeconds),
    );
    expect(three.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(30);
  });

  it('reads the delivery function own variables, and rejects a bad one', () => {
    const settings = readLocalSettings({
      WEBHOOK_RETRY_BASE_SECONDS: '5',
      WEBHOOK_DISABLE_AFTER_FAILURES: '3',
    });
    expect(settings.webhooks.retries.baseDelaySeconds).toBe(5);
    expect(settings.webhooks.disableAfterFailures).toBe(3);
    expect(() => readLocalSettings({ WEBHOOK_RETRY_BASE_SECONDS: '0' })).toThrow(
      /WEBHOOK_RETRY_BASE_SECONDS/,
    );
  });

  it('polls webhook-deliveries and lists it in the banner', () => {
    const trigger = LOCAL_TRIGGERS.find((t) => t.name === 'webhook delivery') as QueueTrigger;
    expect(trigger.queue).toBe('webhookDeliveries');
    const text = trigger.banner.text({
      settings: readLocalSettings({}),
      queues: {
        webhookDeliveries: queue('webhook-deliveries'),
        webhookDeliveriesDeadLetters: queue('webhook-deliveries-dlq'),
      } as never,
      topics: { journal: { name: 'ledger-journal' } } as never,
      streamArn: 'arn:stream',
    });
    expect(text).toContain('ledger-journal -> webhook-deliveries (raw delivery)');
    expect(text).toContain('webhook-deliveries-dlq');
  });
});
