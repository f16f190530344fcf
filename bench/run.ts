/**
 * npm run bench — speed and memory of the hot paths, each against a baseline run side by side.
 * Targets are printed with the ratio; they are not pass/fail tests (timing belongs here, not in
 * unit tests). Needs Java 17+ for the DynamoDB Local part.
 */
import { createHash, randomUUID } from 'node:crypto';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { canonicalJson, type Json, requestFingerprint } from '../functions/core/fingerprint';
import { composeHttpHandler } from '../functions/http/compose';
import { staticCallbackSecrets } from '../functions/secrets/callback-secrets';
import { localDynamoClient, startDynamoLocal } from '../local/dynamodb';
import { ensureLedgerTable } from '../local/table';
import { freePort } from '../test/support/free-port';
import { httpEvent } from '../test/support/http-event';
import { compare } from './measure';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const results: { title: string; ratio: number; target: number }[] = [];

async function fingerprintBench() {
  const body: Json = {
    type: 'debit',
    amount: 125_000,
    currency: 'EUR',
    reference: 'invoice 2026-11 #4411, customer ACME GmbH',
    paymentId: 'pay_01JDXN3T7QK6',
  };
  const r = await compare(
    'Request fingerprint (canonical JSON + SHA-256) vs plain JSON.stringify + SHA-256',
    {
      name: 'baseline: sha256(JSON.stringify(body))',
      run: () => createHash('sha256').update(JSON.stringify(body)).digest('hex'),
    },
    {
      name: 'fingerprint: sha256(canonical(op, path, body))',
      run: () =>
        requestFingerprint('POST /v1/accounts/{accountId}/transactions', { accountId: 'a' }, body),
    },
    50_000,
  );
  results.push({ ...r, target: 3 });
  const nested: Json = {
    items: Array.from({ length: 50 }, (_, i) => ({ z: i, a: { y: [i, i], b: 'x' } })),
  };
  const r2 = await compare(
    'Canonical JSON of a 50-item nested body vs JSON.stringify',
    { name: 'baseline: JSON.stringify', run: () => JSON.stringify(nested) },
    { name: 'canonicalJson', run: () => canonicalJson(nested) },
    5_000,
  );
  results.push({ ...r2, target: 5 });
}

async function dynamoBench() {
  const dynamo = await startDynamoLocal(await freePort());
  const client = localDynamoClient(dynamo.endpoint);
  try {
    const tableName = 'ledger-bench';
    await ensureLedgerTable(client, tableName);
    const app = composeHttpHandler({
      dynamo: client,
      config: {
        tableName,
        idempotencyRetentionSeconds: 3600,
        inboxRetentionSeconds: 3600,
        exportFee: 100,
        callbackApplicationId: 'bench',
      },
      callbackSecrets: staticCallbackSecrets('{}'),
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
    const created = await app(
      httpEvent('POST', '/v1/accounts', {
        principal: 'bench',
        idempotencyKey: 'acct',
        body: { currency: 'EUR' },
      }),
    );
    const accountId = JSON.parse(created.body).id as string;
    const path = `/v1/accounts/${accountId}/transactions`;
    const credit = { type: 'credit', amount: 1, currency: 'EUR' };
    await app(
      httpEvent('POST', path, { principal: 'bench', idempotencyKey: 'replayed', body: credit }),
    );

    const r1 = await compare(
      'First request (one TransactWriteItems: claim + balance + entry) vs a plain PutItem',
      {
        name: 'baseline: PutItem of one item',
        run: () =>
          client.send(
            new PutItemCommand({
              TableName: tableName,
              Item: marshall({ pk: randomUUID(), sk: 'x' }),
            }),
          ),
      },
      {
        name: 'POST credit, new key',
        run: () =>
          app(
            httpEvent('POST', path, {
              principal: 'bench',
              idempotencyKey: randomUUID(),
              body: credit,
            }),
          ),
      },
      200,
      2,
    );
    results.push({ ...r1, target: 4 });
    const r2 = await compare(
      'Replay (claim fails, stored response returned) vs first request',
      {
        name: 'baseline: POST credit, new key',
        run: () =>
          app(
            httpEvent('POST', path, {
              principal: 'bench',
              idempotencyKey: randomUUID(),
              body: credit,
            }),
          ),
      },
      {
        name: 'POST credit, replayed key',
        run: () =>
          app(
            httpEvent('POST', path, {
              principal: 'bench',
              idempotencyKey: 'replayed',
              body: credit,
            }),
          ),
      },
      200,
      2,
    );
    results.push({ ...r2, target: 1.5 });
  } finally {
    client.destroy();
    await dynamo.stop();
  }
}

await fingerprintBench();
await dynamoBench();
console.log('\nSummary (cost ratio candidate/baseline; lower is better)');
for (const r of results) {
  const verdict = r.ratio <= r.target ? 'within target' : 'OVER TARGET';
  console.log(
    `  ${r.ratio.toFixed(2).padStart(6)}x  target ≤ ${r.target}x  ${verdict}  ${r.title}`,
  );
}
