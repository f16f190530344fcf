/**
 * The one-account section of `npm run bench` (docs/contract.md §20): today's code and the new
 * code side by side on the contention layer, in alternating rounds. Clients call through the
 * latency proxy (the modelled round trip), which calls the contention layer in a process of
 * its own, which calls DynamoDB Local.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DEFAULT_EVENTS_MAX_CONCURRENCY } from '../../functions/contract/events';
import { DEFAULT_GAP_REFETCH_AFTER_SECONDS } from '../../functions/contract/gaps';
import { LOCAL_AWS } from '../../functions/contract/local-stack';
import { silentLog } from '../../functions/domain/shared/log';
import { composeEventsHandler } from '../../functions/handlers/events/compose';
import { composeHttpHandler } from '../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../kit/http-event';
import { DEFAULT_CONTENTION_WRITE_UNITS } from '../../local/services/contention/service';
import { localDynamoClient } from '../../local/services/dynamodb/dynamodb-local';
import { ensureLedgerTable } from '../../local/services/dynamodb/table';
import { benchConfig } from '../http/ours';
import { PRINCIPAL } from '../http/scenarios';
import { startLatencyProxy } from '../latency-proxy';
import { progress } from '../progress';
import { BENCH_TABLE, type BenchSettings } from '../settings';
import { TODAYS_SEQUENCE_RETRY, TODAYS_TRANSACTION_RETRY } from './baseline';
import { type CommandCosts, measureCosts } from './costs';
import { startLayerProcess } from './layer';
import {
  type EventsRound,
  type EventsSide,
  eventsRound,
  type HttpRound,
  type HttpSide,
  httpRound,
  producerRecords,
} from './scenarios';
import { accountBalance, printTenInFlight } from './ten-in-flight';

export const HOT_SIDES = {
  today: 'today: one transaction per record',
  perRecord: 'per record, converging retries',
  batched10: 'batched, batches of 10',
  batched100: 'batched, batches of 100',
  httpToday: 'today',
  httpOurs: 'converging retries',
} as const;

export const PRODUCERS = [1, 10, 50] as const;
export const HTTP_IN_FLIGHT = 80;

export interface HotResults {
  readonly writeUnitsPerSecond: number;
  readonly concurrency: number;
  readonly eventsPerRound: number;
  readonly httpPerRound: number;
  /** Per producer count, side → rounds. */
  readonly events: { readonly producers: number; readonly bySide: Record<string, EventsRound[]> }[];
  readonly http: Record<string, HttpRound[]>;
  readonly costs: CommandCosts;
}

const alternate = <T>(items: readonly T[], round: number): T[] =>
  round % 2 === 0 ? [...items] : [...items].reverse();

function append<T>(bySide: Record<string, T[]>, side: string, value: T): void {
  bySide[side] = [...(bySide[side] ?? []), value];
}

export async function measureHot(
  dynamoEndpoint: string,
  settings: BenchSettings,
): Promise<HotResults> {
  const layer = await startLayerProcess(dynamoEndpoint, DEFAULT_CONTENTION_WRITE_UNITS);
  const proxy = await startLatencyProxy({ target: layer.endpoint, rttMs: settings.rttMs });
  const client = localDynamoClient(proxy.endpoint);
  const direct = localDynamoClient(dynamoEndpoint);
  const tableName = `ledger-hot-${randomUUID()}`;
  try {
    await ensureLedgerTable(direct, tableName, BENCH_TABLE);
    const config = benchConfig(tableName);
    const http = (retry?: typeof TODAYS_TRANSACTION_RETRY) =>
      composeHttpHandler({
        dynamo: client,
        config,
        callbackSecrets: staticCallbackSecrets('{}'),
        log: silentLog,
        ...(retry ? { retry } : {}),
      });
    const setupHttp = composeHttpHandler({
      dynamo: direct,
      config,
      callbackSecrets: staticCallbackSecrets('{}'),
      log: silentLog,
    });
    const newAccount = async () => {
      const created = await setupHttp(
        httpEvent('POST', '/v1/accounts', {
          principal: PRINCIPAL,
          idempotencyKey: randomUUID(),
          body: { currency: 'EUR' },
        }),
      );
      return String(JSON.parse(created.body).id);
    };
    const balanceOf = (accountId: string) => () => accountBalance(direct, tableName, accountId);
    const sqs = new SQSClient({ ...LOCAL_AWS, endpoint: 'http://127.0.0.1:9', maxAttempts: 1 });
    /** The events consumer on `dynamo`; its dead letters go nowhere (port 9). */
    const eventsOn = (dynamo: DynamoDBClient, batchWrites: boolean, today = false) =>
      composeEventsHandler({
        dynamo,
        sqs,
        config: {
          ...config,
          deadLetterQueueUrl: 'http://127.0.0.1:9/000000000000/dlq',
          gapRefetchAfterSeconds: DEFAULT_GAP_REFETCH_AFTER_SECONDS,
        },
        log: silentLog,
        batchWrites,
        ...(today ? { retry: TODAYS_TRANSACTION_RETRY, sequenceRetry: TODAYS_SEQUENCE_RETRY } : {}),
      });
    const consumer = (batchWrites: boolean, today = false) => eventsOn(client, batchWrites, today);
    const eventSides: EventsSide[] = [
      { name: HOT_SIDES.today, consume: consumer(false, true), batchSize: 10 },
      { name: HOT_SIDES.perRecord, consume: consumer(false), batchSize: 10 },
      { name: HOT_SIDES.batched10, consume: consumer(true), batchSize: 10 },
      { name: HOT_SIDES.batched100, consume: consumer(true), batchSize: 100 },
    ];
    const httpSides: HttpSide[] = [
      { name: HOT_SIDES.httpToday, send: http(TODAYS_TRANSACTION_RETRY) },
      { name: HOT_SIDES.httpOurs, send: http() },
    ];
    const eventsPerRound = settings.smoke ? 20 : 600;
    const httpPerRound = settings.smoke ? 10 : 240;
    const concurrency = DEFAULT_EVENTS_MAX_CONCURRENCY;

    const events: HotResults['events'] = [];
    for (const producers of PRODUCERS) {
      const bySide: Record<string, EventsRound[]> = {};
      for (let round = 0; round < settings.rounds; round++) {
        progress(
          settings,
          `one account: ${producers} producers, round ${round + 1}/${settings.rounds}`,
        );
        for (const side of alternate(eventSides, round)) {
          const accountId = await newAccount();
          const records = producerRecords(accountId, producers, eventsPerRound);
          append(
            bySide,
            side.name,
            await eventsRound(side, records, concurrency, layer, balanceOf(accountId)),
          );
        }
      }
      events.push({ producers, bySide });
    }
    const httpResults: Record<string, HttpRound[]> = {};
    for (let round = 0; round < settings.rounds; round++) {
      progress(
        settings,
        `one account: HTTP credits, ${HTTP_IN_FLIGHT} in flight, round ${round + 1}`,
      );
      for (const side of alternate(httpSides, round)) {
        const accountId = await newAccount();
        append(
          httpResults,
          side.name,
          await httpRound(
            side,
            accountId,
            HTTP_IN_FLIGHT,
            httpPerRound,
            proxy,
            layer,
            balanceOf(accountId),
          ),
        );
      }
    }
    const bench = { direct, tableName, proxy, layer, newAccount };
    await printTenInFlight(bench, httpSides, settings, httpPerRound);
    // Costs on a client of their own, straight to DynamoDB Local: sizes, not contention.
    const costClient = localDynamoClient(dynamoEndpoint);
    const costs = await measureCosts({
      client: costClient,
      tableName,
      http: composeHttpHandler({
        dynamo: costClient,
        config,
        callbackSecrets: staticCallbackSecrets('{}'),
        log: silentLog,
      }),
      consume: eventsOn(costClient, true),
    }).finally(() => costClient.destroy());
    return {
      writeUnitsPerSecond: layer.writeUnitsPerSecond,
      concurrency,
      eventsPerRound,
      httpPerRound,
      events,
      http: httpResults,
      costs,
    };
  } finally {
    client.destroy();
    direct.destroy();
    await proxy.close();
    await layer.stop();
  }
}
