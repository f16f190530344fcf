/**
 * The batches section of `npm run bench` (docs/contract.md §25): credits into ONE direct
 * account through independent batches of 100, 10 in flight, beside single requests at 80 in
 * flight, in alternating rounds on the contention layer (through the latency proxy). Every round
 * checks the balance is exactly what was sent.
 */
import { randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { HttpResult } from '../../functions/api/types';
import { MAX_BATCH_OPERATIONS } from '../../functions/contract/batches';
import { keys } from '../../functions/dynamodb/table/keys';
import { httpEvent } from '../../kit/http-event';
import { busiestCommits, type LayerProcess } from '../hot/layer';
import { HTTP_IN_FLIGHT } from '../hot/run';
import { type HttpRound, httpRound } from '../hot/scenarios';
import { PRINCIPAL } from '../http/scenarios';
import { onOneAccount } from '../one-account';
import { progress } from '../progress';
import type { BenchSettings } from '../settings';

export const BATCH_SIDES = {
  batches: `batches of ${MAX_BATCH_OPERATIONS}, 10 in flight`,
  singles: `single requests, ${HTTP_IN_FLIGHT} in flight`,
} as const;
export const BATCHES_IN_FLIGHT = 10;

export interface BatchRound {
  readonly perSecond: number;
  /** Operations answered 503 or 409 idempotency_key_in_use and sent again in a later batch. */
  readonly retriedPerCredit: number;
  /** Commits of the busiest item (the account) per credit: 1 / credits per transaction at best. */
  readonly busiestCommitsPerCredit: number;
}

export interface BatchResults {
  readonly creditsPerRound: number;
  readonly bySide: { readonly batches: BatchRound[]; readonly singles: HttpRound[] };
}

type Operation = { key: string; op: 'credit'; accountId: string; body: object };

/**
 * `credits` credits of 1 into `accountId` in batches of 100, `BATCHES_IN_FLIGHT` callers at a
 * time; an operation answered 503 or 409 idempotency_key_in_use goes back into the queue under
 * its own key (docs/contract.md §25), a batch answered 5xx is sent again with its key.
 */
async function batchRound(
  send: (event: ReturnType<typeof httpEvent>) => Promise<HttpResult>,
  accountId: string,
  credits: number,
  balance: () => Promise<number>,
  layer: LayerProcess,
): Promise<BatchRound> {
  const layerBefore = await layer.stats();
  const queue: Operation[] = Array.from({ length: credits }, () => ({
    key: randomUUID(),
    op: 'credit',
    accountId,
    body: { type: 'credit', amount: 1, currency: 'EUR' },
  }));
  const before = await balance();
  let retried = 0;
  let pending = 0;
  const start = performance.now();
  const caller = async () => {
    for (;;) {
      const operations = queue.splice(0, MAX_BATCH_OPERATIONS);
      if (operations.length === 0) {
        if (pending === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      pending++;
      const key = randomUUID();
      let answer: HttpResult;
      for (let attempt = 1; ; attempt++) {
        answer = await send(
          httpEvent('POST', '/v1/batches', {
            principal: PRINCIPAL,
            idempotencyKey: key,
            body: { mode: 'independent', operations },
          }),
        );
        if (answer.statusCode < 500 || attempt >= 50) break;
      }
      if (answer.statusCode !== 200)
        throw new Error(`batch: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
      const { results } = JSON.parse(answer.body) as { results: { status: number }[] };
      results.forEach((result, i) => {
        if (result.status === 201) return;
        if (result.status !== 503 && result.status !== 409)
          throw new Error(`operation answered ${result.status}`);
        retried++;
        queue.push(operations[i] as Operation);
      });
      pending--;
    }
  };
  await Promise.all(Array.from({ length: BATCHES_IN_FLIGHT }, caller));
  const seconds = (performance.now() - start) / 1000;
  const got = (await balance()) - before;
  if (got !== credits) throw new Error(`batches: ${got} credited for ${credits} operations`);
  const busiest = busiestCommits(layerBefore, await layer.stats());
  return {
    perSecond: credits / seconds,
    retriedPerCredit: retried / credits,
    busiestCommitsPerCredit: busiest / credits,
  };
}

export function measureBatches(
  dynamoEndpoint: string,
  settings: BenchSettings,
): Promise<BatchResults> {
  return onOneAccount(dynamoEndpoint, settings, 'batches', async (bench) => {
    const { app, direct, tableName, proxy, layer, newAccount } = bench;
    const balanceOf = (accountId: string) => async () => {
      const { Item } = await direct.send(
        new GetItemCommand({
          TableName: tableName,
          Key: { pk: { S: keys.account(accountId).pk }, sk: { S: keys.account(accountId).sk } },
          ConsistentRead: true,
        }),
      );
      return Number(Item?.balance?.N ?? Number.NaN);
    };
    const creditsPerRound = settings.smoke ? 200 : 4_000;
    const singlesPerRound = settings.smoke ? 20 : 240;
    const bySide: BatchResults['bySide'] = { batches: [], singles: [] };
    for (let round = 0; round < settings.rounds; round++) {
      progress(settings, `batches: one account, round ${round + 1}/${settings.rounds}`);
      const order =
        round % 2 === 0 ? (['batches', 'singles'] as const) : (['singles', 'batches'] as const);
      for (const side of order) {
        const accountId = await newAccount();
        if (side === 'batches') {
          bySide.batches.push(
            await batchRound(app, accountId, creditsPerRound, balanceOf(accountId), layer),
          );
        } else {
          const sides = { name: BATCH_SIDES.singles, send: app };
          bySide.singles.push(
            await httpRound(
              sides,
              accountId,
              HTTP_IN_FLIGHT,
              singlesPerRound,
              proxy,
              layer,
              balanceOf(accountId),
            ),
          );
        }
      }
    }
    return { creditsPerRound, bySide };
  });
}

/** Credits/s through batches over credits/s of single requests, per round (the §25 target). */
export function batchesRatio(results: BatchResults): { batches: number[]; singles: number[] } {
  return {
    batches: results.bySide.batches.map((r) => r.perSecond),
    singles: results.bySide.singles.map((r) => r.perSecond),
  };
}

/** The section of docs/benchmarks.md. */
export function batchesSection(results: BatchResults): string[] {
  const median = (values: readonly number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const { batches, singles } = batchesRatio(results);
  const retried = median(results.bySide.batches.map((r) => r.retriedPerCredit));
  const busiest = (rounds: readonly { busiestCommitsPerCredit: number }[]) =>
    median(rounds.map((r) => r.busiestCommitsPerCredit)).toFixed(3);
  return [
    '## Batches: one account (docs/contract.md §25)',
    '',
    `Credits of 1 into ONE direct account on the contention layer, fresh account per side and round:`,
    `${results.creditsPerRound} credits through independent \`POST /v1/batches\` of ${MAX_BATCH_OPERATIONS},`,
    `${BATCHES_IN_FLIGHT} batches in flight (each coalesced into transactions of up to 30 credits and ONE`,
    `account update), beside single \`POST …/transactions\` at ${HTTP_IN_FLIGHT} in flight. The balance is checked`,
    'exact after every round; an operation answered 503 or 409 idempotency_key_in_use is sent again in a later batch.',
    '',
    "| side | credits/s (median) | retried operations per credit | busiest item's commits per credit |",
    '| --- | --- | --- | --- |',
    `| ${BATCH_SIDES.batches} | ${median(batches).toFixed(0)} | ${retried.toFixed(3)} | ${busiest(results.bySide.batches)} |`,
    `| ${BATCH_SIDES.singles} | ${median(singles).toFixed(0)} | – | ${busiest(results.bySide.singles)} |`,
  ];
}
