/** The one-account section of docs/benchmarks.md and its verdicts (docs/contract.md §20). */
import { ms, row } from '../report-format';
import { formatSpread, pairedRatio, spread } from '../stats';
import { POWERTOOLS_CREDIT_UNITS } from './costs';
import { awsCeilingRows, FULL_CHUNK, modelEventsPerSecond } from './model';
import { HOT_SIDES, type HotResults, HTTP_IN_FLIGHT } from './run';
import type { EventsRound } from './scenarios';

/** One decimal unless told: rates and holds. */
const med = (values: readonly number[], digits = 1) => ms(values, digits);

export interface HotVerdictInput {
  readonly measure: string;
  readonly ours: readonly number[];
  readonly theirs: readonly number[];
  readonly atLeast: number;
  /**
   * Per round, the rate the `ours` side would reach at its modelled ceiling on the same layer
   * (its records per transaction at the hold it measured): held against `theirs`, the most any
   * retry or scheduling policy of that side could show.
   */
  readonly ceiling: readonly number[];
}

/** The ratios `npm run bench` judges: events/s batched vs today, HTTP credits/s vs today. */
export function hotVerdicts(hot: HotResults): HotVerdictInput[] {
  const out: HotVerdictInput[] = [];
  const rate = (rounds: readonly EventsRound[] | undefined) =>
    (rounds ?? []).map((r) => r.eventsPerSecond);
  for (const c of hot.events) {
    const batched = c.bySide[HOT_SIDES.batched100] ?? [];
    out.push({
      measure: `one account, ${c.producers} producer${c.producers === 1 ? '' : 's'}: events/s batched (batches of 100) / today per record`,
      ours: rate(batched),
      theirs: rate(c.bySide[HOT_SIDES.today]),
      atLeast: 6,
      ceiling: batched.map((r) => roundCeiling(hot, r)),
    });
  }
  if (Object.keys(hot.http).length > 0) {
    const ours = hot.http[HOT_SIDES.httpOurs] ?? [];
    out.push({
      measure: `one account, HTTP credits/s at ${HTTP_IN_FLIGHT} in flight, converging retries / today`,
      ours: ours.map((r) => r.perSecond),
      theirs: (hot.http[HOT_SIDES.httpToday] ?? []).map((r) => r.perSecond),
      atLeast: 4,
      // Every credit is one transaction of its own on the account item.
      ceiling: ours.map((r) => roundCeiling(hot, { transactionsPerEvent: 1, holdMs: r.holdMs })),
    });
  }
  return out;
}

/** Largest item of each event write, by its record count (from the cost measurement). */
function eventItemBytes(hot: HotResults, events: number): number {
  return hot.costs.find((c) => c.events === events)?.largestBytes ?? 1024;
}

/**
 * The model's rate for what a round measured: its records per transaction at the hold the
 * layer saw, within the layer's write budget for the account item of that many records.
 */
export function roundCeiling(
  hot: HotResults,
  round: Pick<EventsRound, 'transactionsPerEvent' | 'holdMs'>,
): number {
  const perTx = 1 / Math.max(round.transactionsPerEvent, 1e-9);
  const records = Math.round(perTx);
  return modelEventsPerSecond({
    recordsPerTransaction: perTx,
    latencyMs: Math.max(round.holdMs, 0.1),
    itemBytes: eventItemBytes(hot, records >= FULL_CHUNK ? FULL_CHUNK : records >= 10 ? 10 : 1),
    writeUnitsPerSecond: hot.writeUnitsPerSecond,
  });
}

export function hotSection(hot: HotResults, notes: string): string[] {
  const lines = [
    '## One account (hot accounts, docs/contract.md §20)',
    '',
    'Every call goes through the contention layer (local/services/contention/, in a process of',
    'its own), which cancels a transaction touching an item another one holds, as DynamoDB does,',
    `and gives each item ${hot.writeUnitsPerSecond} write units a second (DynamoDB's 1,000 per`,
    'partition scaled down). Events: credits of 1 into one fresh account per round, from 1, 10',
    `or 50 producers (sources), each numbering its own; ${hot.eventsPerRound} per round, drained by`,
    `${hot.concurrency} batches at once (the event source's maximum concurrency); a record reported`,
    'failed goes back to the end of the queue at once (SQS would hide it for its visibility',
    'timeout first, which only flatters the side that fails more). HTTP: credits of 1 into one',
    `account, ${HTTP_IN_FLIGHT} in flight, ${hot.httpPerRound} per round, each caller retrying its key after`,
    '`Retry-After` on 503 or 409 `idempotency_key_in_use`. Every round checks the balance.',
    '"Today" is main before issue 21 in the same run: one transaction per record and its retry',
    'policy (6 attempts, 20 → 400 ms, no time budget).',
    '',
    row([
      'producers',
      'side',
      'events/s',
      'transactions / event',
      'conflicts / event',
      'throttled / event',
      'redelivered',
      'item held, ms',
      'model events/s',
    ]),
    row(['---', '---', '---', '---', '---', '---', '---', '---', '---']),
  ];
  for (const c of hot.events) {
    for (const [side, rounds] of Object.entries(c.bySide)) {
      const model = roundCeiling(hot, {
        transactionsPerEvent: spread(rounds.map((r) => r.transactionsPerEvent)).median,
        holdMs: spread(rounds.map((r) => r.holdMs)).median,
      });
      lines.push(
        row([
          c.producers,
          side,
          med(rounds.map((r) => r.eventsPerSecond)),
          med(
            rounds.map((r) => r.transactionsPerEvent),
            3,
          ),
          med(
            rounds.map((r) => r.conflictsPerEvent),
            2,
          ),
          med(
            rounds.map((r) => r.throttledPerEvent),
            2,
          ),
          med(
            rounds.map((r) => r.redeliveries),
            0,
          ),
          med(rounds.map((r) => r.holdMs)),
          model.toFixed(0),
        ]),
      );
    }
  }
  lines.push(
    '',
    'Ratios to today, per round (median, lowest–highest round):',
    '',
    row(['producers', 'side', 'events/s ÷ today']),
    row(['---', '---', '---']),
  );
  for (const c of hot.events) {
    const today = (c.bySide[HOT_SIDES.today] ?? []).map((r) => r.eventsPerSecond);
    for (const [side, rounds] of Object.entries(c.bySide)) {
      if (side === HOT_SIDES.today || today.length === 0) continue;
      const ratio = pairedRatio(
        rounds.map((r) => r.eventsPerSecond),
        today,
      );
      lines.push(row([c.producers, side, `${formatSpread(ratio)}×`]));
    }
  }
  lines.push(
    '',
    '"model events/s" is records per transaction × min(1 / item held, (budget / 2) / account',
    'item KB), with the hold the layer measured and the budget above: the ceiling the point is',
    'held against (bench/hot/model.ts). "model credits/s" is the same for HTTP, one credit per',
    'transaction. The Targets table holds each one-account ratio against its ceiling: per round,',
    "the measured side's model rate ÷ today's measured rate — the most any retry or scheduling",
    'policy of that side could show on this layer.',
    '',
    row([
      'HTTP side',
      'credits/s',
      'credit done p50, ms',
      'credit done p99, ms',
      'DynamoDB calls / credit',
      '503 + 409 answers / credit',
      'item held, ms',
      'model credits/s',
    ]),
    row(['---', '---', '---', '---', '---', '---', '---', '---']),
  );
  for (const [side, rounds] of Object.entries(hot.http)) {
    lines.push(
      row([
        side,
        med(rounds.map((r) => r.perSecond)),
        med(
          rounds.map((r) => r.p50Ms),
          0,
        ),
        med(
          rounds.map((r) => r.p99Ms),
          0,
        ),
        med(
          rounds.map((r) => r.callsPerCredit),
          2,
        ),
        med(
          rounds.map((r) => r.retryAnswersPerCredit),
          2,
        ),
        med(rounds.map((r) => r.holdMs)),
        roundCeiling(hot, {
          transactionsPerEvent: 1,
          holdMs: spread(rounds.map((r) => r.holdMs)).median,
        }).toFixed(0),
      ]),
    );
  }
  lines.push(
    '',
    '### The ceiling on AWS (the model, 1,000 write units per partition)',
    '',
    row(['transaction latency', 'writes', 'account item', 'events/s', 'bound']),
    row(['---', '---', '---', '---', '---']),
    ...awsCeilingRows({
      perRecord: eventItemBytes(hot, 1),
      batched10: eventItemBytes(hot, 10),
      batchedFull: eventItemBytes(hot, FULL_CHUNK),
    }).map(row),
    '',
    '### What each command costs on AWS',
    '',
    'Write units from the sizes of the items each command writes (2 per KB and item in a',
    `transaction); a Powertools \`makeIdempotent\` credit costs ${POWERTOOLS_CREDIT_UNITS} (PutItem 1, its 2-item`,
    'transaction 4, UpdateItem 1).',
    '',
    row(['command', 'transactions', 'items', 'largest item, bytes', 'write units', 'per event']),
    row(['---', '---', '---', '---', '---', '---']),
    ...hot.costs.map((c) =>
      row([
        c.command,
        c.transactions,
        c.items,
        c.largestBytes,
        c.writeUnits,
        c.events ? (c.writeUnits / c.events).toFixed(1) : '',
      ]),
    ),
    '',
    notes,
  );
  return lines;
}
