import type { Answer, Client } from './client';
import type { AccountSpec, BatchItem, Currency, Operation } from './plan';

/**
 * One planned operation sent over HTTP under its keys. Earlier operations are named by position:
 * `done(i)` resolves with what operation i answered, so a capture knows its hold's id.
 */
export interface Executed {
  readonly index: number;
  readonly op: Operation;
  /** Absent when the operation was skipped (its target never came about) or went to SQS. */
  readonly answer?: Answer;
  /** What the request referred to, resolved: the hold's id, the reversed entry and its account. */
  readonly target?: { readonly id: string; readonly account?: string };
  readonly skipped?: string;
}

export interface Context {
  readonly client: Client;
  readonly run: string;
  readonly accounts: readonly string[];
  /** The plan's accounts, by the same index: each movement is sent in its account's currency. */
  readonly specs: readonly AccountSpec[];
  /** The run's start: back-dated times count back from it. */
  readonly startedAt: number;
  done(index: number): Promise<Executed>;
}

const DAY_MS = 86_400_000;
/** Ledger events' currency: only EUR accounts receive events (soak/plan.ts). */
export const EVENT_CURRENCY: Currency = 'EUR';

export const effectiveAt = (context: Context, backdays: number) =>
  new Date(context.startedAt - backdays * DAY_MS).toISOString();

const id = (context: Context, account: number) => {
  const value = context.accounts[account];
  if (value === undefined) throw new Error(`no account ${account}`);
  return value;
};

const currency = (context: Context, account: number): Currency => {
  const spec = context.specs[account];
  if (spec === undefined) throw new Error(`no account ${account}`);
  return spec.currency;
};

export async function execute(context: Context, index: number, op: Operation): Promise<Executed> {
  const key = `${context.run}-${index}`;
  const post = (path: string, body: unknown) => context.client.send('POST', path, key, body);
  const done = (answer: Answer, target?: Executed['target']) => ({
    index,
    op,
    answer,
    ...(target ? { target } : {}),
  });
  switch (op.kind) {
    case 'credit':
    case 'debit':
      return done(
        await post(`/v1/accounts/${id(context, op.account)}/transactions`, {
          type: op.kind,
          amount: op.amount,
          currency: currency(context, op.account),
          ...(op.backdays === undefined ? {} : { effectiveAt: effectiveAt(context, op.backdays) }),
        }),
      );
    case 'transfer':
      return done(
        await post('/v1/transfers', {
          fromAccountId: id(context, op.account),
          toAccountId: id(context, op.to),
          amount: op.amount,
          currency: currency(context, op.account),
        }),
      );
    case 'ledger':
      return done(
        await post('/v1/ledger-transactions', {
          ...(op.currency === undefined ? {} : { currency: op.currency }),
          legs: op.legs.map((l) => ({
            accountId: id(context, l.account),
            direction: l.direction,
            amount: l.amount,
            ...(l.currency === undefined ? {} : { currency: l.currency }),
          })),
          ...(op.rates === undefined ? {} : { rates: op.rates }),
        }),
      );
    case 'hold':
      return done(
        await post(`/v1/accounts/${id(context, op.account)}/holds`, {
          amount: op.amount,
          currency: currency(context, op.account),
          expiresInSeconds: op.short ? 2 : 3_600,
        }),
      );
    case 'capture':
    case 'void': {
      const hold = await context.done(op.hold);
      if (hold.answer?.status !== 201) return { index, op, skipped: 'its hold was not placed' };
      const holdId = String(hold.answer.body.id);
      const path = `/v1/holds/${holdId}/${op.kind === 'capture' ? 'captures' : 'voids'}`;
      const body = op.kind === 'capture' && op.amount !== undefined ? { amount: op.amount } : {};
      return done(await post(path, body), { id: holdId });
    }
    case 'reverse': {
      const original = await context.done(op.of);
      if (original.answer?.status !== 201 || !('account' in original.op)) {
        return { index, op, skipped: 'the original was not made' };
      }
      const account = id(context, original.op.account);
      const entry = String(original.answer.body.id);
      return done(
        await post(`/v1/accounts/${account}/transactions/${entry}/reversals`, {
          amount: op.amount,
        }),
        { id: entry, account },
      );
    }
    case 'close':
      return done(await post(`/v1/accounts/${id(context, op.account)}/close`, {}));
    case 'period':
      return done(
        await post(`/v1/accounts/${id(context, op.account)}/period-closes`, {
          through: effectiveAt(context, op.backdays),
        }),
      );
    case 'batch': {
      const operations = op.items.map((item, j) => batchOperation(context, `${key}-${j}`, item));
      return done(
        await retryNotApplied(
          context,
          await post('/v1/batches', { mode: op.mode, operations }),
          operations,
        ),
      );
    }
    case 'events':
      throw new Error('events go to SQS (events.ts)');
  }
}

/**
 * A batch result of `503` or `409 idempotency_key_in_use` was not applied and may be retried
 * under its own key (docs/contract.md §30): alone, on the single route, until it answers for
 * good; its answer takes the result's place and the batch's window ends with it.
 */
async function retryNotApplied(
  context: Context,
  answer: Answer,
  operations: readonly ReturnType<typeof batchOperation>[],
): Promise<Answer> {
  if (answer.status !== 200 || !Array.isArray(answer.body?.results)) return answer;
  let answered = answer.answered;
  const results = await Promise.all(
    answer.body.results.map(
      async (result: { status: number; body?: { code?: string } }, j: number) => {
        const operation = operations[j];
        const again =
          result.status === 503 ||
          (result.status === 409 && result.body?.code === 'idempotency_key_in_use');
        if (!again || !operation) return result;
        const path =
          operation.op === 'transfer'
            ? '/v1/transfers'
            : `/v1/accounts/${operation.accountId}/transactions`;
        const single = await context.client.send('POST', path, operation.key, operation.body);
        answered = Math.max(answered, single.answered);
        return { key: operation.key, status: single.status, body: single.body, retriedAlone: true };
      },
    ),
  );
  return { ...answer, body: { ...answer.body, results }, answered };
}

function batchOperation(context: Context, key: string, item: BatchItem) {
  if (item.op === 'transfer') {
    return {
      key,
      op: 'transfer',
      body: {
        fromAccountId: id(context, item.account),
        toAccountId: id(context, item.to),
        amount: item.amount,
        currency: currency(context, item.account),
      },
    };
  }
  return {
    key,
    op: item.op,
    accountId: id(context, item.account),
    body: { type: item.op, amount: item.amount, currency: currency(context, item.account) },
  };
}

export const DAY = DAY_MS;
