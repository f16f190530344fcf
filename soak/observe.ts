import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { DEAD_LETTER_ATTRIBUTES, RECEIVES_EXHAUSTED } from '../functions/contract/events';
import type { JournalRecord } from '../functions/domain/journal/model';
import type { Verification } from '../functions/domain/journal/verify';
import type { Client } from './client';
import { DAY } from './execute';
import type { RunRecord } from './runner';

/** What the stack holds once the run has settled, as its routes and queues tell it. */
export interface Observed {
  readonly accounts: readonly {
    readonly balance: number;
    readonly available: number;
    readonly version: number;
    readonly status: string;
    readonly closedThrough?: string;
  }[];
  readonly journals: readonly (readonly JournalRecord[])[];
  readonly pending: readonly number[];
  readonly statements: readonly {
    openingBalance: number;
    closingBalance: number;
    totalCredits: number;
    totalDebits: number;
  }[];
  readonly monitors: readonly { readonly state: string }[];
  /** Monitor events off the journal topic's tap, by monitor id: the sequences they fired at. */
  readonly monitorEvents: ReadonlyMap<string, readonly number[]> | undefined;
  /** `ledger-events-dlq`: event id → error code. */
  readonly deadLetters: ReadonlyMap<string, string> | undefined;
  /**
   * The journal verifier's result per account (read from the table), when the soak owns the
   * stack; undefined on a foreign one (`--url`): its table is not the soak's to read.
   */
  readonly verified: readonly Verification[] | undefined;
}

export interface Queues {
  readonly sqs: SQSClient;
  readonly ledgerEvents: string;
  readonly deadLetters: string;
  readonly tap: string;
}

/** How long the stack may take to settle: journal reads took 2–4 s each at load 23 on 2 cores. */
const SETTLE_MS = 300_000;

/** Waits until events are consumed, credits posted, holds expired and journals caught up; then reads. */
export async function observe(
  client: Client,
  record: RunRecord,
  queues: Queues | undefined,
  verify?: (accountId: string) => Promise<Verification>,
): Promise<Observed> {
  const deadline = Date.now() + SETTLE_MS;
  const ids = record.accounts;
  if (queues)
    await until(
      deadline,
      'ledger-events drained',
      async () => (await depth(queues.sqs, queues.ledgerEvents)) === 0,
    );
  const pendingOf = async (id: string) =>
    ((await client.get(`/v1/accounts/${id}/pending-credits?limit=100`)).items as unknown[]).length;
  await until(deadline, 'pending credits posted', async () =>
    (await Promise.all(ids.map(pendingOf))).every((n) => n === 0),
  );
  // Holds of 2 s expire at the sweeper's next pass (every 2 s locally): 6 s after the last one.
  const lastShortHold = Math.max(
    0,
    ...record.executed.map((e) => (e.op.kind === 'hold' && e.op.short ? (e.answer?.at ?? 0) : 0)),
  );
  const expired = lastShortHold + 6_000 - Date.now();
  if (expired > 0) await new Promise((resolve) => setTimeout(resolve, expired));
  let last = '';
  await until(
    deadline,
    'journals caught up',
    async () => {
      const accounts = await Promise.all(ids.map((id) => client.get(`/v1/accounts/${id}`)));
      const heads = await Promise.all(
        ids.map(async (id, i) => (await journal(client, id)).length === accounts[i].version),
      );
      const now = JSON.stringify(accounts.map((a) => a.version));
      const stable = now === last;
      last = now;
      return heads.every(Boolean) && stable;
    },
    500,
  );
  // Settled: nothing changes any more, so everything is read at once.
  const from = new Date(record.startedAt - 61 * DAY).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const all = <T>(read: (id: string) => Promise<T>) => Promise.all(ids.map(read));
  const [accounts, journals, pending, statements, monitors, fired, dead, verified] =
    await Promise.all([
      all((id) => client.get(`/v1/accounts/${id}`)),
      all((id) => journal(client, id)),
      all(pendingOf),
      all((id) => statementTotals(client, id, from, to)),
      Promise.all(
        record.monitors.map((m, i) =>
          client.get(`/v1/accounts/${ids[record.plan.monitors[i]?.account ?? 0]}/monitors/${m}`),
        ),
      ),
      queues ? monitorEvents(queues, new Set(record.monitors)) : undefined,
      queues ? deadLetters(queues, record.run) : undefined,
      verify ? all(verify) : undefined,
    ]);
  return {
    accounts,
    journals,
    pending,
    statements,
    monitors,
    monitorEvents: fired,
    deadLetters: dead,
    verified,
  };
}

async function journal(client: Client, id: string): Promise<JournalRecord[]> {
  const records: JournalRecord[] = [];
  for (let after = 0; ; ) {
    const page = await client.get(`/v1/accounts/${id}/journal?afterSequence=${after}&limit=1000`);
    records.push(...page.items);
    if (page.nextAfterSequence === null) return records;
    after = page.nextAfterSequence;
  }
}

async function statementTotals(client: Client, id: string, from: string, to: string) {
  const page = await client.get(
    `/v1/accounts/${id}/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=1`,
  );
  return {
    openingBalance: page.openingBalance,
    closingBalance: page.closingBalance,
    totalCredits: page.totalCredits,
    totalDebits: page.totalDebits,
  };
}

async function depth(sqs: SQSClient, url: string): Promise<number> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return (
    Number(Attributes.ApproximateNumberOfMessages ?? 0) +
    Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0)
  );
}

/** Takes every message off a queue. */
async function drain(
  queues: Queues,
  url: string,
): Promise<{ body: string; attributes: Record<string, string> }[]> {
  const out: { body: string; attributes: Record<string, string> }[] = [];
  for (;;) {
    const { Messages = [] } = await queues.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        MessageAttributeNames: ['All'],
      }),
    );
    if (Messages.length === 0) return out;
    for (const m of Messages) {
      const attributes: Record<string, string> = {};
      for (const [name, value] of Object.entries(m.MessageAttributes ?? {}))
        attributes[name] = value.StringValue ?? '';
      out.push({ body: m.Body ?? '', attributes });
    }
    await queues.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
      }),
    );
  }
}

async function monitorEvents(
  queues: Queues,
  ours: ReadonlySet<string>,
): Promise<Map<string, number[]>> {
  const fired = new Map<string, Set<number>>();
  for (const message of await drain(queues, queues.tap)) {
    const event = JSON.parse(message.body) as {
      type?: string;
      data?: { monitorId?: string; sequence?: number };
    };
    const monitor = event.data?.monitorId;
    if (event.type !== 'ledger.balance_monitor.v1' || monitor === undefined || !ours.has(monitor))
      continue;
    fired.set(monitor, (fired.get(monitor) ?? new Set()).add(Number(event.data?.sequence)));
  }
  return new Map([...fired].map(([id, s]) => [id, [...s].sort((a, b) => a - b)]));
}

async function deadLetters(queues: Queues, run: string): Promise<Map<string, string>> {
  const letters = new Map<string, string>();
  for (const message of await drain(queues, queues.deadLetters)) {
    const event = JSON.parse(message.body) as { id?: string };
    if (typeof event.id === 'string' && event.id.startsWith(run)) {
      // One SQS moved itself (the consumer died on the last receive) carries no error_code.
      const code = message.attributes[DEAD_LETTER_ATTRIBUTES.code] ?? RECEIVES_EXHAUSTED;
      letters.set(event.id, mergedCode(letters.get(event.id), code));
    }
  }
  return letters;
}

/**
 * An event dead-lettered more than once (a refused event delivered twice replays its refusal,
 * §6): a permanent refusal decides over copies whose receives ran out; two different
 * permanent codes stay both (`a|b`), which no check accepts.
 */
function mergedCode(before: string | undefined, code: string): string {
  if (before === undefined || before === RECEIVES_EXHAUSTED || before === code) return code;
  return code === RECEIVES_EXHAUSTED ? before : `${before}|${code}`;
}

async function until(
  deadline: number,
  what: string,
  check: () => Promise<boolean>,
  everyMs = 250,
): Promise<void> {
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`the stack never settled: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
