import type { Client } from './client';
import type { sendEvents } from './events';
import { type Context, type Executed, execute } from './execute';
import type { Operation, Plan } from './plan';
import { seeded } from './random';

/** What a run did, for the checker: the accounts and monitors it made and every operation's answer. */
export interface RunRecord {
  readonly run: string;
  readonly plan: Plan;
  readonly startedAt: number;
  readonly accounts: readonly string[];
  readonly monitors: readonly string[];
  readonly executed: readonly Executed[];
  /** Messages put on `ledger-events` (duplicates included). */
  readonly eventsSent: number;
}

export interface Faults {
  /** Kill the stack (SIGKILL) and restart it when these operations start. */
  readonly killAt: readonly number[];
  /** Cut DynamoDB off for `outageMs` when these operations start. */
  readonly outageAt: readonly number[];
  readonly outageMs: number;
}

export interface RunTarget {
  readonly client: Client;
  /** Absent without an SQS endpoint (`--url` without `--sqs`): `events` operations are skipped. */
  readonly sendEvents?: (
    run: string,
    accounts: readonly string[],
    items: Parameters<typeof sendEvents>[5],
  ) => Promise<number>;
  readonly killAndRestart?: () => Promise<void>;
  readonly outage?: (ms: number) => Promise<void>;
  /** Called after each operation answered (progress). */
  readonly onDone?: (executed: Executed) => void;
  readonly onFault?: (kind: 'kill' | 'outage') => void;
}

/** Operations run at most this many at once; each block of 25 draws its own concurrency. */
const BLOCK = 25;

export async function runPlan(
  target: RunTarget,
  plan: Plan,
  run: string,
  options: {
    readonly concurrency: number;
    readonly faults: Faults;
    readonly only?: ReadonlySet<number>;
  },
): Promise<RunRecord> {
  const { client } = target;
  const startedAt = Date.now();
  const accounts: string[] = [];
  for (const [i, spec] of plan.accounts.entries()) {
    const answer = await client.send('POST', '/v1/accounts', `${run}-account-${i}`, {
      currency: spec.currency,
      overdraftLimit: spec.overdraft,
      ...(spec.deferred ? { creditIntake: 'deferred' } : {}),
    });
    if (answer.status !== 201)
      throw new Error(`creating account ${i}: ${answer.status} ${JSON.stringify(answer.body)}`);
    accounts.push(String(answer.body.id));
  }
  const monitors: string[] = [];
  for (const [i, spec] of plan.monitors.entries()) {
    const answer = await client.send(
      'POST',
      `/v1/accounts/${accounts[spec.account]}/monitors`,
      `${run}-monitor-${i}`,
      {
        field: spec.field,
        operator: spec.operator,
        value: spec.value,
      },
    );
    if (answer.status !== 201)
      throw new Error(`creating monitor ${i}: ${answer.status} ${JSON.stringify(answer.body)}`);
    monitors.push(String(answer.body.id));
  }
  const promises = new Map<number, Promise<Executed>>();
  let eventsSent = 0;
  const context: Context = {
    client,
    run,
    accounts,
    specs: plan.accounts,
    startedAt,
    done: (index) =>
      promises.get(index) ??
      Promise.resolve({ index, op: plan.operations[index] as Operation, skipped: 'left out' }),
  };
  const one = async (index: number, op: Operation): Promise<Executed> => {
    if (op.kind === 'events') {
      if (!target.sendEvents) return { index, op, skipped: 'no SQS endpoint to send events to' };
      eventsSent += await target.sendEvents(run, accounts, op.items);
      return { index, op };
    }
    return execute(context, index, op);
  };
  const random = seeded(plan.seed ^ 0x5eed);
  const inFlight = new Set<Promise<unknown>>();
  const faults: Promise<unknown>[] = [];
  let limit = 1;
  const kills = positions(options.faults.killAt);
  const outages = positions(options.faults.outageAt);
  for (const [index, op] of plan.operations.entries()) {
    if (index % BLOCK === 0) limit = random.int(1, options.concurrency);
    if (options.only && !options.only.has(index)) continue;
    // A fault fires before the first operation at or past its position, so a shrunk replay that
    // left that operation out still meets it where the failing run did.
    if (kills.due(index) && target.killAndRestart) {
      target.onFault?.('kill');
      faults.push(target.killAndRestart());
    }
    if (outages.due(index) && target.outage) {
      target.onFault?.('outage');
      faults.push(target.outage(options.faults.outageMs));
    }
    while (inFlight.size >= limit) await Promise.race(inFlight);
    const promise = one(index, op).then((executed) => {
      target.onDone?.(executed);
      return executed;
    });
    promises.set(index, promise);
    const tracked = promise.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }
  const executed = await Promise.all(promises.values());
  await Promise.all(faults);
  return { run, plan, startedAt, accounts, monitors, executed, eventsSent };
}

/** Plan positions of one kind of fault, each due once: at the first operation run at or past it. */
function positions(at: readonly number[]) {
  const left = [...at].sort((a, b) => a - b);
  return {
    due(index: number): boolean {
      let due = false;
      while (left[0] !== undefined && left[0] <= index) {
        left.shift();
        due = true;
      }
      return due;
    },
  };
}
