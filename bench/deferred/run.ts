/**
 * The deferred-credits section of `npm run bench` (docs/contract.md §24): HTTP credits of 1 into
 * ONE deferred account at 80 in flight beside the same into ONE direct account, in alternating
 * rounds on the contention layer (through the latency proxy). A folder posts the deferred
 * account's pending credits while they arrive, as the credit-intake queue would; every round
 * checks that what was accepted is exactly what was sent, and that after the last answer
 * everything is posted (balance and version exact) within the §24 bound.
 */
import { randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { MAX_CREDITS_PER_POSTING } from '../../functions/domain/accounts/pending-credits';
import { CreditFolder } from '../../functions/domain/intake/posting';
import { readIntakePartitions } from '../../functions/dynamodb/intake/partitions';
import { createPostingStore } from '../../functions/dynamodb/intake/posting-store';
import { keys } from '../../functions/dynamodb/table/keys';
import type { composeHttpHandler } from '../../functions/handlers/http/compose';
import { httpEvent } from '../../kit/http-event';
import { itemSize, type WireItem } from '../../local/services/contention/items';
import { busiestCommits } from '../hot/layer';
import { HTTP_IN_FLIGHT } from '../hot/run';
import { type HttpRound, httpRound } from '../hot/scenarios';
import { PRINCIPAL } from '../http/scenarios';
import { onOneAccount } from '../one-account';
import { progress } from '../progress';
import type { BenchSettings } from '../settings';
import { type DeferredItemSizes, deferredModelLines } from './model';

export const DEFERRED_SIDES = {
  deferred: `one deferred account, ${HTTP_IN_FLIGHT} in flight`,
  direct: `one direct account, ${HTTP_IN_FLIGHT} in flight`,
} as const;

/** §24: every credit posted within this long after the last answer. */
export const POSTED_WITHIN_MS = 10_000;
/** How often the bench's folder looks for pending credits (the queue's batching window, about). */
const FOLDER_POLL_MS = 200;

export interface DeferredRound extends HttpRound {
  /** From the last answer until nothing was pending any more, ms. */
  readonly postedAfterMs: number;
}

export interface DeferredResults {
  readonly creditsPerRound: number;
  /** The items' sizes at the end, for the AWS model. */
  readonly sizes: DeferredItemSizes;
  readonly bySide: { readonly deferred: DeferredRound[]; readonly direct: HttpRound[] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function measureDeferred(
  dynamoEndpoint: string,
  settings: BenchSettings,
): Promise<DeferredResults> {
  return onOneAccount(dynamoEndpoint, settings, 'deferred', async (bench) => {
    const { app, client, direct, tableName, proxy, layer } = bench;
    const newAccount = (creditIntake: 'direct' | 'deferred') => bench.newAccount({ creditIntake });
    const folder = new CreditFolder(createPostingStore({ client, tableName }), {
      clock: () => new Date(),
    });
    const rawItem = async (key: { pk: string; sk: string }) => {
      const { Item } = await direct.send(
        new GetItemCommand({ TableName: tableName, Key: marshall(key), ConsistentRead: true }),
      );
      // The SDK's AttributeValue union is the wire form the contention layer sizes.
      return (Item ?? {}) as unknown as WireItem;
    };
    const account = async (accountId: string) => {
      const { Item } = await direct.send(
        new GetItemCommand({
          TableName: tableName,
          Key: { pk: { S: keys.account(accountId).pk }, sk: { S: keys.account(accountId).sk } },
          ConsistentRead: true,
        }),
      );
      const item = Item ? unmarshall(Item) : {};
      return { balance: Number(item.balance), version: Number(item.version ?? 0) };
    };
    const pendingOf = async (accountId: string) => {
      const partitions = await readIntakePartitions(direct, tableName, accountId, 8);
      const credits = partitions.flatMap((p) => p.pending);
      return { count: credits.length, sum: credits.reduce((s, p) => s + p.entry.amount, 0) };
    };
    const creditsPerRound = settings.smoke ? 20 : 300;
    const bySide: DeferredResults['bySide'] = { deferred: [], direct: [] };
    for (let round = 0; round < settings.rounds; round++) {
      progress(settings, `deferred credits: one account, round ${round + 1}/${settings.rounds}`);
      const order =
        round % 2 === 0 ? (['deferred', 'direct'] as const) : (['direct', 'deferred'] as const);
      for (const side of order) {
        const accountId = await newAccount(side);
        const send = { name: DEFERRED_SIDES[side], send: app };
        if (side === 'direct') {
          const balance = async () => (await account(accountId)).balance;
          bySide.direct.push(
            await httpRound(
              send,
              accountId,
              HTTP_IN_FLIGHT,
              creditsPerRound,
              proxy,
              layer,
              balance,
            ),
          );
          continue;
        }
        // Accepted = posted + pending: what the answers promised, whatever the folder did yet.
        // Read between two folder runs, never during one: a credit posted between the two reads
        // would be in neither.
        let folderIdle: Promise<unknown> = Promise.resolve();
        const between = <T>(read: () => Promise<T>): Promise<T> => {
          const done = folderIdle.then(read);
          folderIdle = done.catch(() => undefined);
          return done;
        };
        const accepted = () =>
          between(
            async () => (await account(accountId)).balance + (await pendingOf(accountId)).sum,
          );
        const layerBefore = await layer.stats();
        let answering = true;
        const folding = (async () => {
          while (answering) {
            await between(() => folder.postAll(accountId));
            await sleep(FOLDER_POLL_MS);
          }
        })();
        const answered = await httpRound(
          send,
          accountId,
          HTTP_IN_FLIGHT,
          creditsPerRound,
          proxy,
          layer,
          accepted,
        );
        answering = false;
        await folding;
        const lastAnswer = performance.now();
        while ((await pendingOf(accountId)).count > 0) {
          if (performance.now() - lastAnswer > 6 * POSTED_WITHIN_MS)
            throw new Error('deferred: pending credits left a minute after the last answer');
          await folder.postAll(accountId);
        }
        const postedAfterMs = performance.now() - lastAnswer;
        // Acceptance and posting both: the busiest of the gates and the account item.
        const busiest = busiestCommits(layerBefore, await layer.stats());
        const posted = await account(accountId);
        if (posted.balance !== creditsPerRound || posted.version !== creditsPerRound)
          throw new Error(
            `deferred: balance ${posted.balance}, version ${posted.version} for ${creditsPerRound} credits`,
          );
        bySide.deferred.push({
          ...answered,
          postedAfterMs,
          busiestCommitsPerCredit: busiest / creditsPerRound,
        });
      }
    }
    const sizes = await itemSizes(rawItem, newAccount, folder, app);
    return { creditsPerRound, bySide, sizes };
  });
}

/**
 * The billed sizes the AWS model needs, read off items this run writes: a direct account after a
 * credit, a gate after intakes, a deferred account after a posting of MAX_CREDITS_PER_POSTING.
 */
async function itemSizes(
  rawItem: (key: { pk: string; sk: string }) => Promise<WireItem>,
  newAccount: (intake: 'direct' | 'deferred') => Promise<string>,
  folder: CreditFolder,
  app: ReturnType<typeof composeHttpHandler>,
): Promise<DeferredItemSizes> {
  const credit = (accountId: string) =>
    app(
      httpEvent('POST', `/v1/accounts/${accountId}/transactions`, {
        principal: PRINCIPAL,
        idempotencyKey: randomUUID(),
        body: { type: 'credit', amount: 1, currency: 'EUR' },
      }),
    );
  const directId = await newAccount('direct');
  await credit(directId);
  const deferredId = await newAccount('deferred');
  for (let i = 0; i < MAX_CREDITS_PER_POSTING; i++) await credit(deferredId);
  await folder.postAll(deferredId);
  const gates = await Promise.all(
    Array.from({ length: 8 }, (_, shard) => rawItem(keys.intakeGate(deferredId, shard))),
  );
  return {
    directAccount: itemSize(await rawItem(keys.account(directId))),
    gate: Math.max(...gates.map(itemSize)),
    postedAccount: itemSize(await rawItem(keys.account(deferredId))),
  };
}

/** Credits/s into the deferred account over credits/s into the direct one, per round (§24). */
export function deferredRatio(results: DeferredResults): { deferred: number[]; direct: number[] } {
  return {
    deferred: results.bySide.deferred.map((r) => r.perSecond),
    direct: results.bySide.direct.map((r) => r.perSecond),
  };
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The section of docs/benchmarks.md. */
export function deferredSection(results: DeferredResults): string[] {
  const { deferred, direct } = deferredRatio(results);
  const rows = (name: string, rounds: readonly HttpRound[], posted: string) =>
    `| ${name} | ${median(rounds.map((r) => r.perSecond)).toFixed(0)} | ` +
    `${median(rounds.map((r) => r.p99Ms)).toFixed(0)} | ` +
    `${median(rounds.map((r) => r.retryAnswersPerCredit)).toFixed(3)} | ` +
    `${median(rounds.map((r) => r.holdMs)).toFixed(1)} | ` +
    `${median(rounds.map((r) => r.busiestCommitsPerCredit)).toFixed(3)} | ${posted} |`;
  const postedAfter = results.bySide.deferred.map((r) => r.postedAfterMs);
  return [
    '## Deferred credits: one account (docs/contract.md §24)',
    '',
    `HTTP credits of 1 into ONE account at ${HTTP_IN_FLIGHT} in flight on the contention layer, fresh account per`,
    `side and round, ${results.creditsPerRound} credits each: a deferred account (each credit one transaction of claim,`,
    'gate and pending credit, over 8 gates; a folder posts up to 30 per account transaction while they arrive)',
    'beside a direct one (each credit one transaction on the account item). Accepted money is checked exact after',
    `the answers, balance and version after the folder; ratio ${(median(deferred) / Math.max(median(direct), 1e-9)).toFixed(2)}×.`,
    '',
    "| side | credits/s (median) | p99 ms | retry answers per credit | item hold ms | busiest item's commits per credit | posted after the last answer |",
    '| --- | --- | --- | --- | --- | --- | --- |',
    rows(
      DEFERRED_SIDES.deferred,
      results.bySide.deferred,
      `${median(postedAfter).toFixed(0)} ms (max ${Math.max(...postedAfter, 0).toFixed(0)})`,
    ),
    rows(DEFERRED_SIDES.direct, results.bySide.direct, '–'),
    '',
    'Both sides commit one transaction at a time here: DynamoDB Local runs transactions serially (the SQS',
    "section's 10 raw transactions at once against one after another), so the gates spread nothing locally;",
    "the hold a deferred transaction has on its items is what the folder's 91-item postings add.",
    '',
    ...deferredModelLines(results.sizes),
  ];
}
