import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_TRIGGERS } from '../../../../local/functions';
import type { LocalResources } from '../../../../local/resources';
import { Lifecycle } from '../../../../local/services/lifecycle';
import type { LocalQueues } from '../../../../local/services/sqs/queues';
import { readLocalSettings } from '../../../../local/settings';
import {
  type RunningStack,
  startTrigger,
  type Trigger,
  type TriggerContext,
} from '../../../../local/triggers/trigger';

const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

const queue = (name: string) => ({
  name,
  url: `http://sqs.us-east-1.localhost:4566/000000000000/${name}`,
  arn: `arn:aws:sqs:us-east-1:000000000000:${name}`,
});
const queues: LocalQueues = {
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
};

/** Only what the triggers under test read; the registered functions are not built here. */
function context(lines: string[], env: Record<string, string> = {}): TriggerContext {
  const resources = { sqs: new SQSClient({ region: 'us-east-1' }), queues } as LocalResources;
  const stack: RunningStack = { resources, apiUrl: 'http://127.0.0.1:3000' };
  return {
    settings: readLocalSettings(env),
    stack,
    stream: { arn: 'arn:unused', client: {} as never },
    out: (line) => lines.push(line),
  };
}

const banner = { label: 'Test', text: () => 'a test trigger' };

describe('LOCAL_TRIGGERS (what npm start starts, in order)', () => {
  it('registers the events consumer, the two stream consumers, the credit folder, the search indexer, the webhook delivery function, the export worker, the sweeper and the reconciler', () => {
    expect(LOCAL_TRIGGERS.map((t) => [t.kind, t.name])).toEqual([
      ['queue', 'events consumer'],
      ['stream', 'outbox dispatcher'],
      ['queue', 'credit folder'],
      ['stream', 'journal projector'],
      ['queue', 'search indexer'],
      ['queue', 'webhook delivery'],
      ['queue', 'export worker'],
      ['schedule', 'sweeper'],
      ['schedule', 'reconciler'],
    ]);
  });

  it('gives every trigger its own name, log tags and a banner label that fits the column', () => {
    const names = LOCAL_TRIGGERS.map((t) => t.name);
    const functionTags = LOCAL_TRIGGERS.map((t) => t.tags.function);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(functionTags).size).toBe(functionTags.length);
    for (const { banner: line } of LOCAL_TRIGGERS)
      expect(line.label.length).toBeLessThanOrEqual(10);
  });

  it('reads the table stream with at most two consumers (DynamoDB Streams allows two per shard)', () => {
    expect(LOCAL_TRIGGERS.filter((t) => t.kind === 'stream')).toHaveLength(2);
  });

  it('consumes each queue with at most one trigger, in batches the event source allows', () => {
    const consumed = LOCAL_TRIGGERS.flatMap((t) => (t.kind === 'queue' ? [t] : []));
    expect(new Set(consumed.map((t) => t.queue)).size).toBe(consumed.length);
    for (const env of [{}, { EVENTS_BATCH_SIZE: '100', EVENTS_MAX_CONCURRENCY: '8' }]) {
      const settings = readLocalSettings(env);
      for (const t of consumed) {
        expect(t.batchSize(settings)).toBeGreaterThanOrEqual(1);
        expect(t.batchSize(settings)).toBeLessThanOrEqual(100);
        expect(t.maxConcurrency?.(settings) ?? 1).toBeGreaterThanOrEqual(1);
      }
    }
    const events = consumed.find((t) => t.queue === 'ledgerEvents');
    const busy = readLocalSettings({ EVENTS_BATCH_SIZE: '50', EVENTS_MAX_CONCURRENCY: '8' });
    expect([events?.batchSize(busy), events?.maxConcurrency?.(busy)]).toEqual([50, 8]);
  });

  it('leaves the export worker off with EXPORT_WORKER=off', () => {
    const worker = LOCAL_TRIGGERS.find((t) => t.name === 'export worker');
    expect(worker?.off?.(readLocalSettings({ EXPORT_WORKER: 'off' }))).toMatch(/EXPORT_WORKER=off/);
    expect(worker?.off?.(readLocalSettings({}))).toBeUndefined();
  });
});

describe('startTrigger', () => {
  it('prints why a trigger is off and starts nothing', async () => {
    const lines: string[] = [];
    const lifecycle = new Lifecycle();
    let built = 0;
    const trigger: Trigger = {
      kind: 'schedule',
      name: 'nightly job',
      intervalSeconds: () => 1,
      tags: { trigger: 'job', function: 'job' },
      off: () => 'nightly job off',
      handler: () => {
        built += 1;
        return async () => {};
      },
      banner,
    };

    await startTrigger(lifecycle, trigger, context(lines));
    await lifecycle.stopAll();

    expect(lines).toEqual(['nightly job off']);
    expect(built).toBe(0);
  });

  it('runs a scheduled function with its log lines tagged, until the lifecycle stops it', async () => {
    const lines: string[] = [];
    const stops: string[] = [];
    const lifecycle = new Lifecycle((line) => stops.push(line));
    let runs = 0;
    const trigger: Trigger = {
      kind: 'schedule',
      name: 'nightly job',
      intervalSeconds: () => 0.1,
      tags: { trigger: 'job', function: 'job-fn' },
      handler: (stack, log) => async () => {
        runs += 1;
        log.info('ran', { apiUrl: stack.apiUrl });
        if (runs === 1) throw new Error('first run fails');
      },
      banner,
    };

    await startTrigger(lifecycle, trigger, context(lines));
    await expect.poll(() => runs).toBeGreaterThanOrEqual(2);
    await lifecycle.stopAll();

    expect(lines[0]).toBe('starting the nightly job (schedule trigger)...');
    expect(lines).toContain('[job-fn] INFO ran {"apiUrl":"http://127.0.0.1:3000"}');
    expect(lines).toContainEqual(
      expect.stringMatching(/^\[job\] ERROR nightly job failed; retrying after the interval/),
    );
    expect(stops).toEqual(['stopped nightly job']);
  });

  it('puts a queue consumer behind a poller on its queue, with its batch size and visibility', async () => {
    sqs.on(ReceiveMessageCommand).resolves({});
    sqs.on(DeleteMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const lines: string[] = [];
    const lifecycle = new Lifecycle();
    const trigger: Trigger = {
      kind: 'queue',
      name: 'jobs consumer',
      queue: 'exportJobs',
      batchSize: () => 3,
      visibilityTimeoutSeconds: (settings) => settings.sqsVisibilityTimeoutSeconds * 2,
      tags: { trigger: 'jobs', function: 'jobs-fn' },
      handler: () => async () => undefined,
      banner,
    };

    await startTrigger(lifecycle, trigger, context(lines, { SQS_VISIBILITY_TIMEOUT_SECONDS: '7' }));
    await lifecycle.stopAll();

    expect(lines[0]).toBe('starting the jobs consumer (queue trigger)...');
    expect(sqs.commandCalls(ReceiveMessageCommand)[0]?.args[0].input).toMatchObject({
      QueueUrl: queues.exportJobs.url,
      MaxNumberOfMessages: 3,
      VisibilityTimeout: 14,
      WaitTimeSeconds: 0,
    });
  });
});
