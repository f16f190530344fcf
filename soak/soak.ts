import type { Finding } from './check/check';
import { drawPlan, type Plan } from './plan';
import { Progress } from './progress';
import { startSession } from './session';

/**
 * `npm run soak`: rounds of seeded plans on one stack, each checked, until the time is up or one
 * fails (with `keepGoing`, until the time is up: each failure shrunk and kept).
 */
export interface SoakOptions {
  readonly seed: number;
  /** Operations per round. */
  readonly operations: number;
  /** Rounds start until this many minutes have passed (at least one round). */
  readonly minutes: number;
  readonly concurrency: number;
  readonly url?: string;
  /** With `url`: the running stack's SQS/SNS endpoint (events, the DLQ, monitor events). */
  readonly sqs?: string;
  readonly lossRate: number;
  /** Replays at most this many subsets to shrink a failure. */
  readonly shrinkBudget: number;
  /** Rounds go on after a failing one (`--keep-going`). */
  readonly keepGoing?: boolean;
  readonly log: (line: string) => void;
  readonly tty: boolean;
}

export interface SoakResult {
  readonly seed: number;
  readonly rounds: number;
  readonly operations: number;
  readonly byKind: Readonly<Record<string, number>>;
  readonly faults: {
    lostAnswers: number;
    kills: number;
    outages: number;
    retries: number;
    eventsSent: number;
    transientDeadLetters: number;
  };
  readonly findings: readonly Finding[];
  /** Exchanges (ledger transactions in USD and EUR) the ledger applied. */
  readonly exchanges: number;
  /** Rounds and shrink replays checked; journals `verify` read from the table. */
  readonly checked: number;
  readonly verified: number;
  /** False on a foreign stack (`--url`): the journal verifier did not run. */
  readonly deepVerify: boolean;
  /** Each failing round's plan, its findings and the shortest sequence (plan positions) found. */
  readonly failures: readonly Failure[];
  readonly seconds: number;
}

export interface Failure {
  readonly plan: Plan;
  readonly findings: readonly Finding[];
  readonly operations: readonly number[];
}

export async function soak(options: SoakOptions): Promise<SoakResult> {
  const started = Date.now();
  const session = await startSession({
    seed: options.seed,
    concurrency: options.concurrency,
    lossRate: options.lossRate,
    ...(options.url ? { url: options.url } : {}),
    ...(options.sqs ? { sqs: options.sqs } : {}),
    log: options.log,
  });
  options.log(`stack ready in ${Math.round((Date.now() - started) / 1000)} s`);
  const { counters, proxy, client } = session;
  const progress = new Progress(options.tty, () => ({
    operations: counters.operations,
    lost: proxy.stats.lost,
    kills: counters.kills,
    outages: counters.outages,
    retries: client.stats.retries,
    checked: counters.checked,
    findings: counters.findings,
    verified: counters.verified,
  }));
  // Ctrl-C or a CI timeout: stop the stack (and DynamoDB Local) before leaving.
  const interrupted = () => {
    progress.stop();
    void session.close().finally(() => process.exit(130));
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, interrupted);
  const deadline = started + options.minutes * 60_000;
  const findings: Finding[] = [];
  const failures: Failure[] = [];
  let rounds = 0;
  let operations = 0;
  const byKind: Record<string, number> = {};
  try {
    do {
      const plan = drawPlan({
        seed: options.seed + rounds,
        operations: options.operations,
      });
      const result = await session.round(plan, {
        faults: options.url === undefined,
        shrinkBudget: options.shrinkBudget,
      });
      rounds++;
      operations += plan.operations.length;
      for (const op of plan.operations) byKind[op.kind] = (byKind[op.kind] ?? 0) + 1;
      if (result.findings.length > 0) {
        findings.push(...result.findings);
        failures.push({ plan, findings: result.findings, operations: result.shortest ?? [] });
        if (options.keepGoing !== true) break;
      }
    } while (Date.now() < deadline);
  } catch (error) {
    options.log(
      `stack output (last lines):\n${session.output().split('\n').slice(-60).join('\n')}`,
    );
    throw error;
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.removeListener(signal, interrupted);
    progress.stop();
    await session.close();
  }
  return {
    seed: options.seed,
    rounds,
    operations,
    byKind,
    faults: {
      lostAnswers: proxy.stats.lost,
      kills: counters.kills,
      outages: counters.outages,
      retries: client.stats.retries,
      eventsSent: counters.eventsSent,
      transientDeadLetters: counters.transientDeadLetters,
    },
    findings,
    exchanges: counters.exchanges,
    checked: counters.checked,
    verified: counters.verified,
    deepVerify: session.deepVerify,
    failures,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}
