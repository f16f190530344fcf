/** The tables, accounts and handlers the HTTP and SQS sections of a bench run measure. */
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { httpEvent } from '../kit/http-event';
import { ensureLedgerTable } from '../local/services/dynamodb/table';
import { createOurConsumer, createOurHttp } from './http/ours';
import { benchLambdaContext, createPowertoolsCredit } from './http/powertools-credit';
import { type HttpSide, PRINCIPAL, postCredit, postLedgerTransaction } from './http/scenarios';
import { BENCH_TABLE } from './settings';
import { SIDES } from './sides';
import type { SqsSide } from './sqs/scenarios';
import { createSequentialConsumer } from './sqs/sequential-consumer';

async function createIdempotencyTable(client: DynamoDBClient, tableName: string) {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    }),
  );
}

async function createAccounts(
  send: HttpSide['send'],
  count: number,
  principal = PRINCIPAL,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 20) {
    const created = await Promise.all(
      Array.from({ length: Math.min(20, count - i) }, () =>
        send(
          httpEvent('POST', '/v1/accounts', {
            principal,
            idempotencyKey: randomUUID(),
            body: { currency: 'EUR' },
          }),
        ),
      ),
    );
    ids.push(...created.map((r) => String(JSON.parse(r.body).id)));
  }
  return ids;
}

/** Every side of the HTTP and SQS sections, on fresh tables with their accounts. */
export interface Fixture {
  readonly http: HttpSide[];
  readonly sqs: SqsSide[];
  readonly client: DynamoDBClient;
  readonly ledgerTable: string;
}

export async function fixture(
  client: DynamoDBClient,
  setup: DynamoDBClient,
  spread: number,
): Promise<Fixture> {
  const ledgerTable = `ledger-bench-${randomUUID()}`;
  const idempotencyTable = `idempotency-bench-${randomUUID()}`;
  await ensureLedgerTable(setup, ledgerTable, BENCH_TABLE);
  await createIdempotencyTable(setup, idempotencyTable);
  const ours = createOurHttp(client, ledgerTable);
  const powertools = (useLocalCache: boolean) => {
    const handler = createPowertoolsCredit({
      client,
      ledgerTable,
      idempotencyTable,
      retentionSeconds: 3600,
      useLocalCache,
    });
    return (event: Parameters<typeof handler>[0]) => handler(event, benchLambdaContext());
  };
  const side = async (name: string, send: HttpSide['send'], spreadOver: number) => {
    const [hot, ...rest] = await createAccounts(ours, 1 + spreadOver);
    return { name, send, hotAccount: hot as string, spreadAccounts: rest };
  };
  /** A payer funded for every request of the run, and the four accounts it pays. */
  const ledgerSide = async (): Promise<HttpSide> => {
    const [payer, ...credited] = await createAccounts(ours, 5);
    const funding = postCredit(payer as string, randomUUID(), 1_000_000_000_000);
    if ((await ours(funding)).statusCode !== 201) throw new Error('could not fund the payer');
    const request = postLedgerTransaction(payer as string, credited);
    return { ...(await side(SIDES.oursLedger, ours, 0)), request };
  };
  return {
    client,
    ledgerTable,
    http: [
      await side(SIDES.ours, ours, spread),
      await side(SIDES.powertools, powertools(false), spread),
      await side(SIDES.oursCached, createOurHttp(client, ledgerTable, true), 0),
      await side(SIDES.powertoolsCached, powertools(true), 0),
      await ledgerSide(),
    ],
    sqs: [
      {
        name: SIDES.ours,
        consume: createOurConsumer(client, ledgerTable),
        accounts: await createAccounts(ours, 10),
      },
      {
        name: SIDES.sequential,
        consume: createSequentialConsumer({
          client,
          tableName: ledgerTable,
          retentionSeconds: 3600,
        }),
        accounts: await createAccounts(ours, 10),
      },
    ],
  };
}
