import { createJournalVerifier } from '../functions/dynamodb/journal/verify-store';
import { localDynamoClient } from '../local/services/dynamodb/dynamodb-local';
import { localSqsClient } from '../local/services/sqs/fauxqs';
import { ensureQueues } from '../local/services/sqs/queues';
import { ensureTopics, localSnsClient } from '../local/services/sqs/topics';
import { check, type Finding, transientDeadLetters } from './check/check';
import { type Client, soakClient } from './client';
import { sendEvents } from './events';
import { observe, type Queues } from './observe';
import type { EventItem, Plan } from './plan';
import { type Faults, type RunRecord, type RunTarget, runPlan } from './runner';
import { shrink } from './shrink';
import { type LossyProxy, startLossyProxy } from './stack/lossy-proxy';
import { type SoakStack, startSoakStack } from './stack/stack';

/**
 * A stack (its own, or a running one at `url`) with the lossy proxy in front and the counters
 * of what was injected; rounds of plans run on it, each checked, a failure shrunk.
 */
export interface SessionOptions {
  readonly seed: number;
  readonly concurrency: number;
  readonly lossRate: number;
  /** A running stack's base URL: no kill and no outage. */
  readonly url?: string;
  /**
   * The running stack's SQS/SNS endpoint (`npm start`: http://127.0.0.1:4566): events are sent,
   * the DLQ and the journal topic's tap read and checked as on its own stack.
   */
  readonly sqs?: string;
  readonly dynamoEndpoint?: string;
  readonly plantDoubleCredit?: boolean;
  readonly log?: (line: string) => void;
}

export interface Counters {
  operations: number;
  kills: number;
  outages: number;
  eventsSent: number;
  /** Events SQS dead-lettered after their receives ran out (transient; not a finding, §6). */
  transientDeadLetters: number;
  /** Rounds (and shrink replays) checked, and the findings they had. */
  checked: number;
  findings: number;
  /** Journals the project's verifier read from the table (own stack only). */
  verified: number;
  /** Exchanges (ledger transactions in more than one currency) the ledger applied. */
  exchanges: number;
  readonly byKind: Record<string, number>;
}

export interface RoundResult {
  readonly findings: readonly Finding[];
  /** Plan positions of the shortest failing sequence found (all of them when not shrunk). */
  readonly shortest?: readonly number[];
  readonly seconds: number;
}

export interface Session {
  readonly client: Client;
  /** Whether each round runs `verify` over the table (own stack) or skips it (`--url`). */
  readonly deepVerify: boolean;
  readonly proxy: LossyProxy;
  readonly counters: Counters;
  /** Runs the plan (with a kill at 40 % and an outage at 70 % when `faults`), checks it, shrinks a failure. */
  round(
    plan: Plan,
    options: { readonly faults: boolean; readonly shrinkBudget: number },
  ): Promise<RoundResult>;
  /** The stack's last output lines, for a failure report. */
  output(): string;
  close(): Promise<void>;
}

export async function startSession(options: SessionOptions): Promise<Session> {
  const log = options.log ?? (() => {});
  const stack: SoakStack | undefined = options.url
    ? undefined
    : await startSoakStack(
        options.dynamoEndpoint ? { dynamoEndpoint: options.dynamoEndpoint } : {},
      );
  const proxy = await startLossyProxy(options.url ?? stack?.base() ?? '', {
    seed: options.seed,
    lossRate: options.lossRate,
    ...(options.plantDoubleCredit ? { plantDoubleCredit: true } : {}),
  });
  const client = soakClient(() => proxy.base);
  const side = stack ?? (options.sqs ? await runningQueues(options.sqs) : undefined);
  const queues: Queues | undefined = side && {
    sqs: side.sqs,
    ledgerEvents: side.queues.ledgerEvents.url,
    deadLetters: side.queues.deadLetters.url,
    tap: side.topics.journal.tap.url,
  };
  const counters: Counters = {
    operations: 0,
    kills: 0,
    outages: 0,
    eventsSent: 0,
    transientDeadLetters: 0,
    checked: 0,
    findings: 0,
    verified: 0,
    exchanges: 0,
    byKind: {},
  };
  // The verifier `npm run cli -- verify` runs (cli/commands/verify.ts), on the stack's table.
  const dynamo = stack && localDynamoClient(stack.dynamoEndpoint);
  const verifier =
    stack && dynamo && createJournalVerifier({ client: dynamo, tableName: stack.tableName });
  const verify =
    verifier &&
    (async (accountId: string) => {
      const verification = await verifier.verifyAccount(accountId);
      counters.verified++;
      return verification;
    });
  if (!verify)
    log(
      'journal verify skipped: a foreign stack (--url), whose table the soak does not read; journals are checked by their hash chain over HTTP only',
    );
  const target: RunTarget = {
    client,
    ...(queues && {
      sendEvents: (run: string, accounts: readonly string[], items: readonly EventItem[]) =>
        sendEvents(queues.sqs, queues.ledgerEvents, run, options.seed, accounts, items),
    }),
    ...(stack && {
      killAndRestart: async () => {
        counters.kills++;
        await stack.killAndRestart();
        proxy.retarget(stack.base());
      },
      outage: async (ms: number) => {
        counters.outages++;
        await stack.gate.outage(ms);
      },
    }),
    onDone: (e) => {
      counters.operations++;
      counters.byKind[e.op.kind] = (counters.byKind[e.op.kind] ?? 0) + 1;
      if (e.op.kind === 'ledger' && e.op.rates && e.answer?.status === 201) counters.exchanges++;
    },
  };
  const replay = async (
    plan: Plan,
    faults: Faults,
    only?: ReadonlySet<number>,
  ): Promise<{ record: RunRecord; found: Finding[] }> => {
    const run = `r${plan.seed}x${Math.random().toString(36).slice(2, 8)}`;
    const record = await runPlan(target, plan, run, {
      concurrency: options.concurrency,
      faults,
      ...(only ? { only } : {}),
    });
    counters.eventsSent += record.eventsSent;
    const observed = await observe(client, record, queues, verify);
    const transient = transientDeadLetters(record, observed);
    counters.transientDeadLetters += transient.length;
    if (transient.length > 0)
      log(`  ${transient.length} event(s) dead-lettered after their receives ran out (transient)`);
    const found = check(record, observed);
    counters.checked++;
    counters.findings += found.length;
    return { record, found };
  };
  return {
    client,
    deepVerify: verify !== undefined,
    proxy,
    counters,
    output: () => stack?.output() ?? '',
    round: async (plan, { faults, shrinkBudget }) => {
      const started = Date.now();
      const n = plan.operations.length;
      const injected: Faults = faults
        ? { killAt: [Math.floor(n * 0.4)], outageAt: [Math.floor(n * 0.7)], outageMs: 3_000 }
        : { killAt: [], outageAt: [], outageMs: 0 };
      const { found } = await replay(plan, injected);
      const seconds = Math.round((Date.now() - started) / 1000);
      log(
        `seed ${plan.seed}: ${n} operations, ${found.length} finding(s), ${seconds} s${verify ? '' : ' (journal verify skipped: --url)'}`,
      );
      if (found.length === 0) return { findings: found, seconds };
      for (const f of found.slice(0, 20)) log(`  ${f.check}: ${f.detail}`);
      if (shrinkBudget > 0)
        log(`shrinking (at most ${shrinkBudget} replays, with the failing run's faults)...`);
      // Each replay meets the kill and the outage where the failing run did (runner.ts).
      const shortest = await shrink(
        plan,
        found,
        shrinkBudget,
        async (only) => (await replay(plan, injected, only)).found.length > 0,
        log,
      );
      return { findings: found, shortest, seconds };
    },
    close: async () => {
      dynamo?.destroy();
      await proxy.close();
      if (stack) await stack.stop();
      else side?.sqs.destroy();
    },
  };
}

/**
 * The queues and the journal topic's tap of a running stack at `endpoint` (they exist once
 * `npm start` ran; created the same way if not): what its own stack gives a round.
 */
async function runningQueues(endpoint: string) {
  const sqs = localSqsClient(endpoint);
  const queues = await ensureQueues(sqs);
  const topics = await ensureTopics(localSnsClient(endpoint), sqs);
  return { sqs, queues, topics };
}
