import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Gaps } from '../../../console/server/gaps/gaps';
import { createActions } from '../../../console/server/http/actions';
import { createDeadLetters } from '../../../console/server/queues/dead-letters';
import { REDRIVE_MAX_PER_CLICK } from '../../../console/shared/api';

/**
 * The console's redrive (docs/contract.md §29): at most REDRIVE_MAX_PER_CLICK per click, only
 * the selection when there is one, each copied before it is deleted, the rest made visible
 * again; and nothing at all without the confirmation.
 */
const sqs = mockClient(SQSClient);
const DLQ = 'http://sqs/ledger-events-dlq';
const SOURCE = 'http://sqs/ledger-events';
const queues = [
  { name: 'ledger-events-dlq', url: DLQ, target: { name: 'ledger-events', url: SOURCE } },
];

/** A DLQ of `count` messages that hides what it hands out until released or deleted. */
function fakeQueue(count: number) {
  const letters = Array.from({ length: count }, (_, i) => ({
    MessageId: `m${i}`,
    ReceiptHandle: `r${i}`,
    Body: JSON.stringify({ type: 'ledger.credit.v1', id: `e${i}`, subject: 'a' }),
    Attributes: { SentTimestamp: String(Date.now() - 60_000), ApproximateReceiveCount: '1' },
    MessageAttributes: { error_code: { DataType: 'String', StringValue: 'unknown_account' } },
  })) satisfies Message[];
  const hidden = new Set<string>();
  const sent: string[] = [];
  const deleted: string[] = [];
  const released: string[] = [];
  sqs.on(ReceiveMessageCommand).callsFake(() => {
    const visible = letters.filter((m) => !hidden.has(m.MessageId)).slice(0, 10);
    for (const m of visible) hidden.add(m.MessageId);
    return { Messages: visible };
  });
  sqs.on(ChangeMessageVisibilityCommand).callsFake((input: { ReceiptHandle: string }) => {
    const id = `m${input.ReceiptHandle.slice(1)}`;
    hidden.delete(id);
    released.push(id);
    return {};
  });
  sqs.on(DeleteMessageCommand).callsFake((input: { ReceiptHandle: string }) => {
    const id = `m${input.ReceiptHandle.slice(1)}`;
    letters.splice(
      letters.findIndex((m) => m.MessageId === id),
      1,
    );
    hidden.delete(id);
    deleted.push(id);
    return {};
  });
  sqs.on(SendMessageCommand).callsFake((input: { QueueUrl: string; MessageBody: string }) => {
    expect(input.QueueUrl).toBe(SOURCE);
    sent.push((JSON.parse(input.MessageBody) as { id: string }).id);
    return { MessageId: 'copy' };
  });
  sqs.on(GetQueueAttributesCommand).callsFake(() => ({
    Attributes: { ApproximateNumberOfMessages: String(letters.length - hidden.size) },
  }));
  return { sent, deleted, released, left: () => letters.length };
}

beforeEach(() => sqs.reset());

describe('console redrive', () => {
  it(`moves at most ${REDRIVE_MAX_PER_CLICK} per click and releases what it did not move`, async () => {
    const queue = fakeQueue(25);
    const result = await createDeadLetters(new SQSClient({}), queues).redrive(
      'ledger-events-dlq',
      undefined,
    );
    expect(result.moved).toHaveLength(REDRIVE_MAX_PER_CLICK);
    expect(queue.sent).toHaveLength(REDRIVE_MAX_PER_CLICK);
    expect(queue.deleted).toEqual(result.moved);
    expect(queue.left()).toBe(25 - REDRIVE_MAX_PER_CLICK);
    expect(result.remaining).toBe(25 - REDRIVE_MAX_PER_CLICK);
  });

  it('moves only the selected messages, the others visible again', async () => {
    const queue = fakeQueue(15);
    const result = await createDeadLetters(new SQSClient({}), queues).redrive('ledger-events-dlq', [
      'm3',
      'm12',
      'gone',
    ]);
    expect(result.moved).toEqual(['m3', 'm12']);
    expect(result.missing).toEqual(['gone']);
    expect(queue.sent).toEqual(['e3', 'e12']);
    expect(queue.released.sort()).toEqual(
      Array.from({ length: 15 }, (_, i) => `m${i}`)
        .filter((id) => id !== 'm3' && id !== 'm12')
        .sort(),
    );
  });

  it('lists the messages with their reasons and makes them visible again', async () => {
    const queue = fakeQueue(3);
    const page = await createDeadLetters(new SQSClient({}), queues).list();
    expect(page.queues[0]?.messages.map((m) => [m.messageId, m.reason, m.eventId])).toEqual([
      ['m0', 'unknown_account', 'e0'],
      ['m1', 'unknown_account', 'e1'],
      ['m2', 'unknown_account', 'e2'],
    ]);
    expect(queue.released.sort()).toEqual(['m0', 'm1', 'm2']);
    expect(queue.deleted).toEqual([]);
  });
});

describe('console actions', () => {
  const lines: string[] = [];
  const gaps = {
    waive: async () => ({ outcome: 'waived' as const, waived: [2], ignored: [] }),
  } as unknown as Gaps;
  const actions = () =>
    createActions({
      deadLetters: createDeadLetters(new SQSClient({}), queues),
      gaps,
      user: 'maria',
      log: (line) => lines.push(line),
    });
  beforeEach(() => {
    lines.length = 0;
  });

  it.each([undefined, false, 'yes', 1])(
    'does nothing without confirm: true (confirm %s), and logs the refusal',
    async (confirm) => {
      const queue = fakeQueue(3);
      const answer = await actions().redrive({ queue: 'ledger-events-dlq', confirm });
      expect(answer.status).toBe(428);
      expect(sqs.commandCalls(ReceiveMessageCommand)).toHaveLength(0);
      expect(queue.sent).toEqual([]);
      const waive = await actions().waive({ accountId: 'a', source: 's', numbers: [2], confirm });
      expect(waive.status).toBe(428);
      expect(lines).toEqual([
        'action=redrive target="ledger-events-dlq all" user="console owner=maria" outcome="refused: not confirmed"',
        'action=waive target="account a source s gaps 2" user="console owner=maria" outcome="refused: not confirmed"',
      ]);
    },
  );

  it(`refuses a selection of more than ${REDRIVE_MAX_PER_CLICK}, in words`, async () => {
    fakeQueue(20);
    const ids = Array.from({ length: REDRIVE_MAX_PER_CLICK + 1 }, (_, i) => `m${i}`);
    const answer = await actions().redrive({
      queue: 'ledger-events-dlq',
      messageIds: ids,
      confirm: true,
    });
    expect(answer).toEqual({
      status: 400,
      body: { error: `at most ${REDRIVE_MAX_PER_CLICK} messages per click` },
    });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
    expect(lines).toEqual([
      `action=redrive target="ledger-events-dlq ${ids.length} selected" user="console owner=maria" outcome="failed: at most ${REDRIVE_MAX_PER_CLICK} messages per click"`,
    ]);
  });

  it('logs one line for a confirmed waiver, with its outcome', async () => {
    const answer = await actions().waive({
      accountId: 'a',
      source: 's',
      numbers: [2],
      reason: 'lost',
      confirm: true,
    });
    expect(answer.status).toBe(200);
    expect(lines).toEqual([
      'action=waive target="account a source s gaps 2" user="console owner=maria" outcome="waived 2"',
    ]);
  });
});
