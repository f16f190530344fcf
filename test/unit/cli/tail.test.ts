import {
  DeleteMessageBatchCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_TAIL_WAIT_SECONDS, parseTailArgs, tailCommand } from '../../../cli/commands/tail/tail';
import { recordingContext } from '../../support/cli/context';

/** `tail --wait`: a newcomer waits for a message the stack sends on a schedule, not a sleep. */
const sqs = mockClient(SQSClient);
const { ctx, lines } = recordingContext();
const message = {
  MessageId: 'm-1',
  ReceiptHandle: 'rh-1',
  Body: JSON.stringify({ type: 'ledger.gap.refetch.v1', data: { missing: [2, 3] } }),
};

beforeEach(() => {
  sqs.reset();
  lines.length = 0;
  sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: 'http://sqs/ledger-gaps-tap' });
  sqs.on(DeleteMessageBatchCommand).resolves({ Successful: [{ Id: '0' }], Failed: [] });
});

const waits = () =>
  sqs.commandCalls(ReceiveMessageCommand).map((call) => call.args[0].input.WaitTimeSeconds);

describe('tail --wait', () => {
  it('long-polls an empty queue until the first message, then reads the rest at once', async () => {
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({})
      .resolvesOnce({ Messages: [message] })
      .resolves({});
    const code = await tailCommand.run(['-q', 'ledger-gaps-tap', '--delete', '--wait', '30'], ctx);
    expect(code).toBe(0);
    // Polls of up to 5 s until a message came, then one without waiting.
    expect(waits()).toEqual([5, 5, 0]);
    expect(lines.join('\n')).toContain('ledger.gap.refetch.v1');
    expect(lines.at(-1)).toBe('1 message(s), deleted');
  });

  it('gives up when the wait is over and says the queue is empty', async () => {
    sqs.on(ReceiveMessageCommand).resolves({});
    const started = Date.now();
    expect(await tailCommand.run(['-q', 'ledger-gaps-tap', '-w', '1'], ctx)).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(waits()).toEqual([1]);
    expect(lines.at(-1)).toBe('no messages on ledger-gaps-tap');
  });

  it('without --wait polls once for a second, as before', async () => {
    sqs.on(ReceiveMessageCommand).resolves({});
    await tailCommand.run(['-q', 'ledger-gaps-tap'], ctx);
    expect(waits()).toEqual([1]);
  });

  it('reads whole seconds up to its bound, and not with --follow', () => {
    expect(parseTailArgs(['-q', 'export-jobs', '--wait', '15'], {})).toMatchObject({
      waitSeconds: 15,
    });
    expect(() => parseTailArgs(['-q', 'export-jobs', '--wait', 'soon'], {})).toThrow(
      /--wait must be a whole number from 0 to 300/,
    );
    expect(() =>
      parseTailArgs(['-q', 'export-jobs', '--wait', String(MAX_TAIL_WAIT_SECONDS + 1)], {}),
    ).toThrow(/--wait/);
    expect(() => parseTailArgs(['-q', 'export-jobs', '--wait', '5', '-f'], {})).toThrow(
      /--follow keeps waiting/,
    );
  });
});
