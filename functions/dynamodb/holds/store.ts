import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { HoldRecord, HoldSettlement } from '../../domain/accounts/hold-record';
import type {
  HoldPort,
  HoldReleasePort,
  HoldReleaseResult,
  PlaceHoldResult,
  SettleHoldResult,
} from '../../domain/holds/port';
import type { IdempotencyClaim } from '../../domain/idempotency/port';
import type { EntryGuard } from '../../domain/movements/guard';
import { createLedgerStore } from '../accounts/store';
import { claimedFailure, claimItem, unexpectedFailure as unexpected } from '../idempotency/command';
import { composeMoney } from '../movements/compose';
import { commitMoney } from '../movements/decode';
import type { MoneyPlan } from '../movements/plan';
import { decodeCursor, encodeCursor } from '../table/cursor';
import { HOLD_SK_PREFIX, keys } from '../table/keys';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, type StoreOptions, type TransactPart } from '../table/transact';
import { holdChanged, newHoldItems, placementLeg, settlementPlan, toHoldRecord } from './items';

/** Holds read per listing query while looking for `limit` that match the filter. */
const LISTING_PAGE = 100;
/**
 * Queries one listing request may make: a filter that matches little must not read a whole
 * account's history in one request. Past it, the answer carries a cursor at the last hold read
 * (a page may then hold fewer than `limit` items; docs/contract.md §11).
 */
export const MAX_LISTING_QUERIES = 10;

/** The DynamoDB adapter for holds: placing, settling (capture, void, expiry), reading. */
export function createHoldStore(options: StoreOptions): HoldPort & HoldReleasePort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  const ledger = createLedgerStore(options);

  const commit = (plan: MoneyPlan) => commitMoney(client, composeMoney(tableName, plan), retry);
  const claimPart = (claim: IdempotencyClaim): TransactPart<string> => ({
    role: 'claim',
    item: claimItem(tableName, claim),
    decisive: true,
  });

  const read = (key: ReturnType<typeof keys.hold>) => getItem(client, tableName, key);

  return {
    async placeHold(
      claim: IdempotencyClaim,
      hold: HoldRecord,
      guard: EntryGuard,
    ): Promise<PlaceHoldResult> {
      const [main, ref] = newHoldItems(tableName, hold);
      if (!main || !ref) throw new Error('a hold is written as two items');
      const after = [
        { role: 'hold', item: main },
        { role: 'ref', item: ref },
      ];
      const outcome = await commit({
        head: [claimPart(claim)],
        movements: [{ legs: [placementLeg(hold, guard)], after }],
      });
      if (outcome.kind !== 'cancelled') return { kind: 'committed' };
      const { cancellation } = outcome;
      const replay = claimedFailure(cancellation.failed);
      if (replay) return replay;
      if (!cancellation.accounts.has(hold.accountId)) throw unexpected(cancellation.failed);
      return { kind: 'account_rejected', account: cancellation.accounts.get(hold.accountId) };
    },

    async voidHold(claim: IdempotencyClaim, settlement: HoldSettlement): Promise<SettleHoldResult> {
      const outcome = await commit(
        settlementPlan(tableName, settlement, undefined, claimPart(claim)),
      );
      if (outcome.kind !== 'cancelled') return { kind: 'committed' };
      const { cancellation } = outcome;
      const result = claimedFailure(cancellation.failed) ?? holdChanged(cancellation, settlement);
      if (!result) throw unexpected(cancellation.failed);
      return result;
    },

    async releaseHold(settlement: HoldSettlement): Promise<HoldReleaseResult> {
      const outcome = await commit(settlementPlan(tableName, settlement));
      if (outcome.kind !== 'cancelled') return { kind: 'committed' };
      const changed = holdChanged(outcome.cancellation);
      if (!changed) throw unexpected(outcome.cancellation.failed);
      return changed;
    },

    recordResponse: (claim) => ledger.recordResponse(claim),
    findRecord: (key) => ledger.findRecord(key),

    async getHold(holdId: string) {
      const item = await read(keys.hold(holdId));
      return item ? toHoldRecord(item) : undefined;
    },

    getAccount: (accountId) => ledger.getAccount(accountId),

    async listHolds(accountId, limit, cursor, keep) {
      const { pk } = keys.account(accountId);
      const items: HoldRecord[] = [];
      let start: string | undefined =
        cursor === undefined ? undefined : decodeCursor(cursor, HOLD_SK_PREFIX);
      try {
        // Reads until one more match than `limit` shows there is another page, the end, or the
        // query budget.
        for (let queries = 1; ; queries++) {
          const page = await client.send(
            new QueryCommand({
              TableName: tableName,
              KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
              ExpressionAttributeValues: marshall({ ':pk': pk, ':prefix': HOLD_SK_PREFIX }),
              ScanIndexForward: false,
              ConsistentRead: true,
              Limit: LISTING_PAGE,
              ...(start === undefined ? {} : { ExclusiveStartKey: marshall({ pk, sk: start }) }),
            }),
          );
          for (const raw of page.Items ?? []) {
            const item = unmarshall(raw);
            const hold = toHoldRecord(item);
            if (!keep(hold)) continue;
            if (items.length === limit) {
              const last = items.at(-1);
              if (!last) break;
              return {
                items,
                nextCursor: encodeCursor(keys.holdRef(accountId, last.createdAt, last.id).sk),
              };
            }
            items.push(hold);
          }
          const next = page.LastEvaluatedKey ? unmarshall(page.LastEvaluatedKey) : undefined;
          if (!next) return { items, nextCursor: null };
          start = String(next.sk);
          if (queries === MAX_LISTING_QUERIES) return { items, nextCursor: encodeCursor(start) };
        }
      } catch (error) {
        throw storageError(error);
      }
    },
  };
}
