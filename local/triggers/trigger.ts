import type { Log } from '../../functions/domain/shared/log';
import type { LocalResources } from '../resources';
import type { TableStream } from '../services/dynamodb/service';
import type { Lifecycle } from '../services/lifecycle';
import type { LocalQueues } from '../services/sqs/queues';
import type { LocalTopics } from '../services/sqs/topics';
import type { LocalSettings } from '../settings';
import { lineLog } from './line-log';
import { startQueueTrigger } from './queue';
import { startScheduleTrigger } from './schedule';
import type { SqsBatchHandler } from './sqs-poller';
import { startStreamTrigger } from './stream';
import type { StreamBatchHandler } from './stream-poller';

/**
 * How a function of the local stack is invoked, as its event source invokes it on AWS: a queue
 * (the SQS event source mapping), the table's stream (the DynamoDB Streams event source mapping,
 * with its own checkpoint per shard) or a schedule. local/functions.ts lists one `Trigger` per
 * function in `LOCAL_TRIGGERS`; `npm start` starts them in that order with `startTrigger`.
 */
export type Trigger = QueueTrigger | StreamTrigger | ScheduleTrigger;

interface TriggerBase {
  /** The function, as the startup lines name it: "events consumer". */
  readonly name: string;
  /** Line prefixes: the trigger's own lines (`[poller]`) and the function's logs (`[events]`). */
  readonly tags: { readonly trigger: string; readonly function: string };
  /** A reason to leave the function off (printed instead of starting it). */
  readonly off?: (settings: LocalSettings) => string | undefined;
  /** Its line in the `npm start` banner: a label of at most 10 characters and the text. */
  readonly banner: { readonly label: string; readonly text: (view: TriggerView) => string };
}

export interface QueueTrigger extends TriggerBase {
  readonly kind: 'queue';
  readonly queue: keyof LocalQueues;
  /** Messages per batch, as lib/ sets the event source's BatchSize. */
  readonly batchSize: (settings: LocalSettings) => number;
  /** Batches at once, as lib/ sets the event source's maximum concurrency. @default 1 */
  readonly maxConcurrency?: (settings: LocalSettings) => number;
  readonly visibilityTimeoutSeconds: (settings: LocalSettings) => number;
  readonly handler: (stack: RunningStack, log: Log) => SqsBatchHandler;
}

export interface StreamTrigger extends TriggerBase {
  readonly kind: 'stream';
  readonly handler: (stack: RunningStack, log: Log) => StreamBatchHandler;
}

export interface ScheduleTrigger extends TriggerBase {
  readonly kind: 'schedule';
  readonly intervalSeconds: (settings: LocalSettings) => number;
  readonly handler: (stack: RunningStack, log: Log) => () => Promise<unknown>;
}

/** What a function is built from once the services and the HTTP API are up. */
export interface RunningStack {
  readonly resources: LocalResources;
  /** The local HTTP API, e.g. for the export worker's callbacks. */
  readonly apiUrl: string;
}

/** What a banner line may mention. */
export interface TriggerView {
  readonly settings: LocalSettings;
  readonly queues: LocalQueues;
  readonly topics: LocalTopics;
  readonly streamArn: string;
}

export interface TriggerContext {
  readonly settings: LocalSettings;
  readonly stack: RunningStack;
  /** The table's stream, shared by the stream triggers. */
  readonly stream: TableStream;
  /** Where every line goes (stdout for `npm start`). */
  readonly out: (line: string) => void;
}

/** Starts the function behind its trigger; resolves once the trigger is polling. */
export async function startTrigger(
  lifecycle: Lifecycle,
  trigger: Trigger,
  context: TriggerContext,
): Promise<void> {
  const { settings, stack, out } = context;
  const off = trigger.off?.(settings);
  if (off !== undefined) {
    out(off);
    return;
  }
  out(`starting the ${trigger.name} (${trigger.kind} trigger)...`);
  const tagged = (tag: string) => (line: string) => out(`[${tag}] ${line}`);
  const functionLog = lineLog(tagged(trigger.tags.function));
  const triggerLog = tagged(trigger.tags.trigger);
  switch (trigger.kind) {
    case 'queue':
      return startQueueTrigger(lifecycle, {
        sqs: stack.resources.sqs,
        queue: stack.resources.queues[trigger.queue],
        handler: trigger.handler(stack, functionLog),
        batchSize: trigger.batchSize(settings),
        maxConcurrency: trigger.maxConcurrency?.(settings),
        visibilityTimeoutSeconds: trigger.visibilityTimeoutSeconds(settings),
        log: triggerLog,
      });
    case 'stream':
      return startStreamTrigger(lifecycle, {
        name: trigger.name,
        stream: context.stream,
        handler: trigger.handler(stack, functionLog),
        log: triggerLog,
      });
    case 'schedule':
      return startScheduleTrigger(lifecycle, {
        name: trigger.name,
        run: trigger.handler(stack, functionLog),
        intervalSeconds: trigger.intervalSeconds(settings),
        log: lineLog(triggerLog),
      });
  }
}
