import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { ledgerEvent } from '../kit/ledger-events';
import { EVENT_CURRENCY } from './execute';
import type { EventItem } from './plan';
import { hashed } from './random';

/**
 * Ledger events of one `events` operation onto `ledger-events` (docs/contract.md §6): every
 * event once, the marked ones twice, in an order shuffled by the seed; the plan left gaps in
 * the sequence numbers. Each event's `amount` is unique in the run, so the checker finds the
 * journal record that applied it.
 */
export const eventId = (run: string, item: EventItem) => `${run}-ev-${item.amount}`;
export const eventSource = (run: string) => `urn:soak:${run}`;

export async function sendEvents(
  sqs: SQSClient,
  queueUrl: string,
  run: string,
  seed: number,
  accounts: readonly string[],
  items: readonly EventItem[],
): Promise<number> {
  const bodies = items.flatMap((item) => {
    const subject = accounts[item.account];
    if (subject === undefined) throw new Error(`no account ${item.account}`);
    const body = JSON.stringify(
      ledgerEvent({
        id: eventId(run, item),
        source: eventSource(run),
        type: item.type === 'credit' ? 'ledger.credit.v1' : 'ledger.debit.v1',
        subject,
        sequence: item.sequence,
        amount: item.amount,
        currency: EVENT_CURRENCY,
      }),
    );
    return item.duplicate ? [body, body] : [body];
  });
  const shuffled = bodies
    .map((body, i) => ({ body, order: hashed(seed, 'order', run, body, i) }))
    .sort((a, b) => a.order - b.order);
  for (let i = 0; i < shuffled.length; i += 10) {
    const chunk = shuffled.slice(i, i + 10);
    for (let attempt = 1; ; attempt++) {
      try {
        await sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: m.body })),
          }),
        );
        break;
      } catch (error) {
        if (attempt >= 5) throw error;
      }
    }
  }
  return bodies.length;
}
