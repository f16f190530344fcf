import type { SQSEvent } from 'aws-lambda';
import type { WebhookQueue, WebhookWake } from '../../../functions/domain/webhooks/delivery-port';
import type { WebhookDeliveryHandler } from '../../../functions/handlers/webhooks/consumer';

/**
 * The delivery queue in memory, on a clock of its own: a delayed message is due at the clock's
 * time plus its delay; `runDue` hands due messages to the function in due order, moving the
 * clock to each one (so a test of hours of backoff runs in milliseconds).
 */
export function memoryWebhookQueue() {
  let now = Date.now();
  const waiting: { message: WebhookWake; due: number; seq: number }[] = [];
  let seq = 0;
  const queue: WebhookQueue = {
    async send(message, delaySeconds) {
      waiting.push({ message, due: now + delaySeconds * 1000, seq: seq++ });
    },
  };
  return {
    queue,
    clock: () => new Date(now),
    waiting,
    /** Runs messages (in due order) until none is left or `max` ran; answers how many ran. */
    async runAll(handler: WebhookDeliveryHandler, max = 500): Promise<number> {
      let ran = 0;
      while (waiting.length > 0 && ran < max) {
        waiting.sort((a, b) => a.due - b.due || a.seq - b.seq);
        const next = waiting.shift();
        if (!next) break;
        now = Math.max(now, next.due);
        await handler(sqsEventOf([JSON.stringify(next.message)]));
        ran++;
      }
      return ran;
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

export function sqsEventOf(bodies: readonly string[]): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `m-${i}-${Math.random()}`,
      receiptHandle: 'r',
      body,
      attributes: {} as SQSEvent['Records'][number]['attributes'],
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:webhook-deliveries',
      awsRegion: 'local',
    })),
  };
}
