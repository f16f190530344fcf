/**
 * What the one-account sections of `npm run bench` share (batches, deferred credits): the
 * contention layer in its own process, the latency proxy in front of it, a fresh table, the
 * HTTP composition over the proxied client (`app`) and one straight to DynamoDB Local for setup
 * and checks (`setup`, `direct`), and a new account of the bench's principal.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { HttpHandler } from '../functions/api/types';
import { silentLog } from '../functions/domain/shared/log';
import { composeHttpHandler } from '../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../functions/schemas/exports/callbacks';
import { httpEvent } from '../kit/http-event';
import { DEFAULT_CONTENTION_WRITE_UNITS } from '../local/services/contention/service';
import { localDynamoClient } from '../local/services/dynamodb/dynamodb-local';
import { ensureLedgerTable } from '../local/services/dynamodb/table';
import { type LayerProcess, startLayerProcess } from './hot/layer';
import { benchConfig } from './http/ours';
import { PRINCIPAL } from './http/scenarios';
import { type LatencyProxy, startLatencyProxy } from './latency-proxy';
import { BENCH_TABLE, type BenchSettings } from './settings';

export interface OneAccountBench {
  readonly layer: LayerProcess;
  readonly proxy: LatencyProxy;
  /** Through the proxy and the contention layer: what the measured side uses. */
  readonly client: DynamoDBClient;
  /** Straight to DynamoDB Local: setup and checks, never measured. */
  readonly direct: DynamoDBClient;
  readonly tableName: string;
  readonly app: HttpHandler;
  /** A new account of the bench's principal, created with `body` besides its currency. */
  newAccount(body?: Record<string, unknown>): Promise<string>;
}

/** Runs `measure` on a fresh one-account bench and stops everything after it. */
export async function onOneAccount<T>(
  dynamoEndpoint: string,
  settings: BenchSettings,
  name: string,
  measure: (bench: OneAccountBench) => Promise<T>,
): Promise<T> {
  const layer = await startLayerProcess(dynamoEndpoint, DEFAULT_CONTENTION_WRITE_UNITS);
  const proxy = await startLatencyProxy({ target: layer.endpoint, rttMs: settings.rttMs });
  const client = localDynamoClient(proxy.endpoint);
  const direct = localDynamoClient(dynamoEndpoint);
  const tableName = `ledger-${name}-${randomUUID()}`;
  try {
    await ensureLedgerTable(direct, tableName, BENCH_TABLE);
    const compose = (dynamo: DynamoDBClient) =>
      composeHttpHandler({
        dynamo,
        config: benchConfig(tableName),
        callbackSecrets: staticCallbackSecrets('{}'),
        log: silentLog,
      });
    const setup = compose(direct);
    const newAccount = async (body: Record<string, unknown> = {}) => {
      const created = await setup(
        httpEvent('POST', '/v1/accounts', {
          principal: PRINCIPAL,
          idempotencyKey: randomUUID(),
          body: { currency: 'EUR', ...body },
        }),
      );
      return String(JSON.parse(created.body).id);
    };
    const app = compose(client);
    return await measure({ layer, proxy, client, direct, tableName, app, newAccount });
  } finally {
    client.destroy();
    direct.destroy();
    await proxy.close();
    await layer.stop();
  }
}
