import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../cli/registry';
import { DEMO_CALLBACK_SECRET } from '../../../functions/contract/local-stack';
import { banner, type StackEndpoints } from '../../../local/banner';
import { readLocalSettings } from '../../../local/settings';

const queue = (name: string) => ({
  name,
  url: `http://sqs.us-east-1.localhost:4566/000000000000/${name}`,
  arn: `arn:aws:sqs:us-east-1:000000000000:${name}`,
});

const endpoints: StackEndpoints = {
  httpUrl: 'http://127.0.0.1:3000',
  dynamoEndpoint: 'http://127.0.0.1:8000',
  dynamoExternal: false,
  dynamoLoopbackOnly: true,
  sqsEndpoint: 'http://127.0.0.1:4566',
  sqsExternal: false,
  queues: {
    ledgerEvents: queue('ledger-events'),
    deadLetters: queue('ledger-events-dlq'),
    exportJobs: queue('export-jobs'),
    exportJobsDeadLetters: queue('export-jobs-dlq'),
    creditIntake: queue('credit-intake'),
    creditIntakeDeadLetters: queue('credit-intake-dlq'),
    searchIndex: queue('search-index'),
    searchIndexDeadLetters: queue('search-index-dlq'),
    webhookDeliveries: queue('webhook-deliveries'),
    webhookDeliveriesDeadLetters: queue('webhook-deliveries-dlq'),
  },
  topics: {
    journal: {
      name: 'ledger-journal',
      arn: 'arn:aws:sns:us-east-1:000000000000:ledger-journal',
      tap: queue('ledger-journal-tap'),
    },
    gaps: {
      name: 'ledger-gaps',
      arn: 'arn:aws:sns:us-east-1:000000000000:ledger-gaps',
      tap: queue('ledger-gaps-tap'),
    },
  },
  snsEndpoint: 'http://127.0.0.1:4566',
  streamArn: 'arn:aws:dynamodb:ddblocal:000000000000:table/ledger/stream/2026-11-29T17:14:02.071',
  s3Endpoint: 'http://127.0.0.1:4566',
  consoleToken: 'tok_en-1',
};

describe('the npm start banner', () => {
  it("prints the console's URL with this start's token in the fragment", () => {
    expect(banner(readLocalSettings({}), endpoints)).toContain(
      'Console    http://127.0.0.1:3000/console/#token=tok_en-1 ',
    );
  });

  it('names the contention layer only when DYNAMODB_CONTENTION=on', () => {
    expect(banner(readLocalSettings({}), endpoints)).not.toContain('Contention');
    const text = banner(readLocalSettings({ DYNAMODB_CONTENTION: 'on' }), {
      ...endpoints,
      contentionEndpoint: 'http://127.0.0.1:41234',
    });
    expect(text).toMatch(
      /^ {2}Contention http:\/\/127\.0\.0\.1:41234 .*overlapping transactions on an item are cancelled, 250 write units per item and second\)$/m,
    );
  });

  it('says where DynamoDB Local listens, and warns when it is not 127.0.0.1 only', () => {
    const settings = readLocalSettings({});
    expect(banner(settings, endpoints)).toContain('(DynamoDB Local, in memory, 127.0.0.1 only,');
    expect(banner(settings, { ...endpoints, dynamoLoopbackOnly: false })).toContain(
      'listening on EVERY interface',
    );
  });

  it("lists the CLI's commands from its own registry, and no other", () => {
    for (const env of [{}, { PORT: '4000', CALLBACK_SECRETS: '{"a":["0123456789abcdef0"]}' }]) {
      const text = banner(readLocalSettings(env), endpoints);
      const advertised = [...text.matchAll(/npm run cli -- ([a-z][a-z-]*)/g)].map((m) => m[1]);

      expect(new Set(advertised)).toEqual(new Set(COMMANDS.map((c) => c.name)));
      for (const command of COMMANDS) expect(text).toContain(`# ${command.summary}`);
      expect(text).toMatch(/npm run cli -- --help +# /);
    }
  });

  it('prints the demo application, its secret, the export fee and the CLI commands', () => {
    const text = banner(readLocalSettings({ EXPORT_FEE: '250' }), endpoints);

    expect(text).toContain('POST http://127.0.0.1:3000/v1/callbacks/export-worker');
    expect(text).toContain(
      `demo application "export-worker", demo secret "${DEMO_CALLBACK_SECRET}"`,
    );
    expect(text).toContain('export fee 250');
    expect(text).toMatch(
      /Outbox {5}ledger stream \(2026-11-29T17:14:02\.071\) -> the outbox dispatcher -> export-jobs/,
    );
    expect(text).toMatch(
      /Journal {4}ledger stream -> the journal projector -> SNS ledger-journal -> ledger-journal-tap/,
    );
    expect(text).toMatch(/^npm run cli -- demo /m);
    expect(text).not.toContain('WARNING');
  });

  it('prints the export retries on the CDK arithmetic, and warns when they miss the deadline', () => {
    const text = banner(readLocalSettings({}), endpoints);
    expect(text).toContain(
      'a failing job gets 120 s a run and reappears after 150 s; receive 5 reports FAILED, export-jobs-dlq after 750 s (deadline 900 s)',
    );
    expect(text).not.toContain('WARNING');
    const tight = banner(readLocalSettings({ EXPORT_EXECUTION_TIMEOUT_SECONDS: '600' }), endpoints);
    expect(tight).toContain(
      '  WARNING    5 receives × the export-jobs visibility timeout (150 s) + a 60 s margin (dispatch delay, backlog) = 810 s must be less than the execution deadline (600 s)',
    );
    // 1 s past the DLQ time is not enough: the margin covers dispatch delay and backlog (§30).
    const noMargin = banner(
      readLocalSettings({ EXPORT_EXECUTION_TIMEOUT_SECONDS: '751' }),
      endpoints,
    );
    expect(noMargin).toContain('WARNING');
    // Without a worker no job is retried, so a short deadline (the deadline e2e test) is fine.
    const off = readLocalSettings({ EXPORT_WORKER: 'off', EXPORT_EXECUTION_TIMEOUT_SECONDS: '15' });
    expect(banner(off, endpoints)).not.toContain('WARNING');
  });

  it('prints the export bucket, the worker and the deadline the sweeper enforces', () => {
    const text = banner(readLocalSettings({ EXPORT_EXECUTION_TIMEOUT_SECONDS: '30' }), endpoints);
    expect(text).toContain('S3         http://127.0.0.1:4566/ledger-exports');
    expect(text).toMatch(/Exports {4}export-jobs -> the export worker/);
    expect(text).toContain('past their deadline (30 s)');
    const off = banner(readLocalSettings({ EXPORT_WORKER: 'off' }), endpoints);
    expect(off).toContain('no worker (EXPORT_WORKER=off)');
  });

  it('does not print secrets from CALLBACK_SECRETS, and warns when the export application has none', () => {
    const text = banner(
      readLocalSettings({
        PORT: '3100',
        SQS_PORT: '4600',
        CALLBACK_SECRETS: '{"billing":["billing-secret-0123456789"]}',
      }),
      endpoints,
    );

    expect(text).toContain('applications from CALLBACK_SECRETS: billing (secrets not shown)');
    expect(text).not.toContain('billing-secret-0123456789');
    expect(text).not.toContain(DEMO_CALLBACK_SECRET);
    expect(text).toMatch(/WARNING {4}CALLBACK_SECRETS has no HMAC secret for "export-worker"/);
    expect(text).toMatch(/^PORT=3100 SQS_PORT=4600 CALLBACK_SECRETS='\.\.\.' npm run cli -- demo/m);
  });

  it('warns when the export application has only public keys (its worker signs with HMAC)', () => {
    const whpk = `whpk_${Buffer.alloc(32, 1).toString('base64')}`;
    const text = banner(
      readLocalSettings({
        CALLBACK_SECRETS: '{"billing":["billing-secret-0123456789"]}',
        CALLBACK_PUBLIC_KEYS: JSON.stringify({ 'export-worker': [whpk] }),
      }),
      endpoints,
    );

    expect(text).toContain('applications from CALLBACK_SECRETS: billing, export-worker');
    expect(text).toMatch(/WARNING {4}CALLBACK_SECRETS has no HMAC secret for "export-worker"/);
  });
});
