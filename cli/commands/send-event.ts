import { randomUUID } from 'node:crypto';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { QUEUE_NAMES } from '../../functions/contract/names';
import { describeError } from '../../functions/domain/shared/log';
import { intOption, oneOf, parseCommandArgs, requireString, stringOption } from '../args';
import type { Command } from '../command';
import { type Env, sqsEndpoint } from '../config';
import { CliError, UsageError } from '../errors';
import { queueUrl, sqsClient } from '../sqs';

const NAME = 'send-event';

export interface SendEventArgs {
  readonly help: false;
  readonly event: LedgerEvent;
  readonly sqs: string;
}

export interface LedgerEvent {
  readonly specversion: '1.0';
  readonly id: string;
  readonly source: string;
  readonly type: 'ledger.credit.v1' | 'ledger.debit.v1' | 'ledger.transfer.v1';
  readonly subject: string;
  readonly sequence?: number;
  readonly time: string;
  readonly datacontenttype: 'application/json';
  readonly data: {
    toAccountId?: string;
    amount: number;
    currency: string;
    paymentId?: string;
    reference?: string;
  };
}

const DEFAULT_EVENT_SOURCE = 'urn:idempotent-ledger:cli';

const OPTIONS = {
  account: { type: 'string' },
  to: { type: 'string' },
  amount: { type: 'string' },
  currency: { type: 'string' },
  type: { type: 'string' },
  source: { type: 'string' },
  id: { type: 'string' },
  sequence: { type: 'string' },
  'payment-id': { type: 'string' },
  reference: { type: 'string' },
  sqs: { type: 'string' },
} as const;

export function parseSendEventArgs(
  argv: readonly string[],
  env: Env,
  now: Date = new Date(),
): SendEventArgs | { help: true } {
  const { values, help } = parseCommandArgs(NAME, argv, OPTIONS);
  if (help) return { help: true };
  const subject = requireString(values, 'account', NAME);
  requireString(values, 'amount', NAME);
  const amount = intOption(values, 'amount', NAME, { min: 1, max: 1_000_000_000_000 }) ?? 0;
  const type = oneOf(values, 'type', NAME, ['credit', 'debit', 'transfer'] as const) ?? 'credit';
  const to = stringOption(values, 'to');
  if ((type === 'transfer') !== (to !== undefined)) {
    throw new UsageError('--to <account id> goes with --type transfer, and only with it', NAME);
  }
  const sequence = intOption(values, 'sequence', NAME, { min: 1, max: Number.MAX_SAFE_INTEGER });
  const paymentId = stringOption(values, 'payment-id');
  const reference = stringOption(values, 'reference');
  return {
    help: false,
    event: {
      specversion: '1.0',
      id: stringOption(values, 'id') ?? randomUUID(),
      source: stringOption(values, 'source') ?? DEFAULT_EVENT_SOURCE,
      type: `ledger.${type}.v1`,
      subject,
      sequence,
      time: now.toISOString(),
      datacontenttype: 'application/json',
      data: {
        toAccountId: to,
        amount,
        currency: (stringOption(values, 'currency') ?? 'EUR').toUpperCase(),
        paymentId,
        reference,
      },
    },
    sqs: sqsEndpoint(stringOption(values, 'sqs'), env, NAME),
  };
}

export const sendEventCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- send-event --account <id> --amount <n> [options]

Sends one CloudEvents 1.0 ledger event (contract §6) to the ${QUEUE_NAMES.ledgerEvents} queue of the
local SQS emulator. The stack's queue poller applies it once; GET /v1/accounts/<id> shows the
new balance. An event that can never apply (unknown account, wrong currency, insufficient
funds) lands in ledger-events-dlq: see \`npm run cli -- tail --queue ledger-events-dlq\`.

Options:
  --account <id>        the account id ("subject")                                 required
  --amount <n>          minor units, 1..10^12                                      required
  --currency <code>     ISO 4217 (default EUR)
  --type credit|debit|transfer  (default credit)
  --to <id>             the destination of a transfer ("data.toAccountId"; same owner as
                        --account, else it is dead-lettered as owner_mismatch)
  --source <uri>        the producer (default ${DEFAULT_EVENT_SOURCE})
  --id <id>             the event id (default: a new UUID); (source, id) is the dedup key,
                        so sending the same --id and --source twice applies once
  --sequence <n>        per (source, account) sequence number; skipped numbers become gaps
  --payment-id <id>     business unique key (a second use is a payment_id_conflict)
  --reference <text>    free text
  --sqs <url>           SQS endpoint (default: SQS_ENDPOINT, else http://127.0.0.1:$SQS_PORT,
                        SQS_PORT defaults to 4566)
  -h, --help            this help

Example:
  npm run cli -- send-event --account "$ACCOUNT_ID" --amount 1000 --sequence 1
  npm run cli -- send-event --type transfer --account "$ACCOUNT_ID" --to "$SAVINGS_ID" --amount 300`,
  async run(argv, ctx) {
    const args = parseSendEventArgs(argv, ctx.env);
    if (args.help) {
      ctx.out(sendEventCommand.help);
      return 0;
    }
    const client = sqsClient(args.sqs);
    try {
      const url = await queueUrl(client, args.sqs, QUEUE_NAMES.ledgerEvents, ctx.signal);
      const body = JSON.stringify(args.event);
      const sent = await client
        .send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }), {
          abortSignal: ctx.signal,
        })
        .catch((error: unknown) => {
          throw new CliError(`SendMessage to ${url} failed: ${describeError(error)}`);
        });
      ctx.out(`sent message ${sent.MessageId} to ${QUEUE_NAMES.ledgerEvents}`);
      ctx.out(JSON.stringify(args.event, null, 2));
      return 0;
    } finally {
      client.destroy();
    }
  },
};
