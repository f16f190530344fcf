/**
 * 10 credits in flight on ONE direct account, on the contention layer (issue 50): how many
 * transactions the layer cancelled for a held item, and how many committed, per credit. The
 * retry policy's pauses decide the first number; the second is 1 when nothing is wasted.
 */
import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { keys } from '../../functions/dynamodb/table/keys';
import type { OneAccountBench } from '../one-account';
import { progress } from '../progress';
import type { BenchSettings } from '../settings';
import { type HttpRound, type HttpSide, httpRound } from './scenarios';

export const TEN_IN_FLIGHT = 10;

export interface ContendedRound extends HttpRound {
  /** Transactions the layer cancelled for a held item (TransactionConflict), per credit. */
  readonly cancelledPerCredit: number;
  /** Transactions DynamoDB Local committed, per credit. */
  readonly committedPerCredit: number;
}

/** One round of `requests` credits, `TEN_IN_FLIGHT` at a time, into a new direct account. */
export type ContendedBench = Pick<
  OneAccountBench,
  'app' | 'direct' | 'tableName' | 'proxy' | 'layer' | 'newAccount'
>;

export async function tenInFlightRound(
  bench: ContendedBench,
  requests: number,
): Promise<ContendedRound> {
  const { app, direct, tableName, proxy, layer } = bench;
  const accountId = await bench.newAccount();
  const balance = () => accountBalance(direct, tableName, accountId);
  const before = await layer.stats();
  const side = { name: `${TEN_IN_FLIGHT} in flight`, send: app };
  const round = await httpRound(side, accountId, TEN_IN_FLIGHT, requests, proxy, layer, balance);
  const after = await layer.stats();
  return {
    ...round,
    cancelledPerCredit: (after.conflicts - before.conflicts) / requests,
    committedPerCredit: (after.transactions - before.transactions) / requests,
  };
}

/** The line the bench prints for a round. */
export const contendedLine = (r: ContendedRound): string =>
  `${TEN_IN_FLIGHT} in flight on one account: ${r.perSecond.toFixed(0)} credits/s, ` +
  `${r.cancelledPerCredit.toFixed(2)} cancelled / ${r.committedPerCredit.toFixed(2)} committed ` +
  `transactions per credit, item held ${r.holdMs.toFixed(1)} ms`;

/**
 * The sides in alternating rounds, each round's line printed (issue 50: fewer cancelled
 * transactions per committed credit); the rounds are returned per side.
 */
export async function printTenInFlight(
  bench: Omit<ContendedBench, 'app'>,
  sides: readonly HttpSide[],
  settings: BenchSettings,
  requests: number,
): Promise<Record<string, ContendedRound[]>> {
  const bySide: Record<string, ContendedRound[]> = {};
  for (let round = 0; round < settings.rounds; round++) {
    const ordered = round % 2 === 0 ? [...sides] : [...sides].reverse();
    for (const side of ordered) {
      const result = await tenInFlightRound({ ...bench, app: side.send }, requests);
      bySide[side.name] = [...(bySide[side.name] ?? []), result];
      progress(settings, `${side.name}: ${contendedLine(result)}`);
    }
  }
  return bySide;
}

/** An account's balance, strongly consistent, read straight from DynamoDB Local (checks). */
export async function accountBalance(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
): Promise<number> {
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: {
        pk: { S: keys.account(accountId).pk },
        sk: { S: keys.account(accountId).sk },
      },
      ConsistentRead: true,
    }),
  );
  return Number(Item?.balance?.N ?? Number.NaN);
}
