import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSqsCreditIntake } from '../../aws/sqs/credit-intake';
import { CreditFolder } from '../../domain/intake/posting';
import { createIntakeDueStore } from '../../dynamodb/intake/due';
import { createPostingStore } from '../../dynamodb/intake/posting-store';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { CreditIntakeConfig } from '../shared/config';
import { type CreditIntakeHandler, createCreditIntakeConsumer } from './consumer';

export interface CreditIntakeComposition extends TableComposition<CreditIntakeConfig> {
  readonly sqs: SQSClient;
  /** Epoch ms of the folder's backoff and deadline (tests). @default Date.now */
  readonly now?: () => number;
}

/**
 * The folder (docs/contract.md §24): `credit-intake` → every pending credit of each named
 * account posted in chunks. Its races retry until the invocation's deadline (the consumer sets
 * it from the Lambda's time left), like the events consumer's writes.
 */
export function composeCreditIntakeHandler(options: CreditIntakeComposition): CreditIntakeHandler {
  const { clock, log, metrics } = resolveRuntime(options);
  const untilDeadline = { budgetMs: Number.POSITIVE_INFINITY };
  const table = tableOptions(
    { ...options, retry: { ...untilDeadline, ...options.retry } },
    metrics,
  );
  const queue = createSqsCreditIntake(options.sqs, options.config.creditIntakeQueueUrl);
  return createCreditIntakeConsumer({
    folder: new CreditFolder(createPostingStore(table), {
      ...untilDeadline,
      ...options.retry,
      clock,
      ...(options.now ? { now: options.now } : {}),
    }),
    queue,
    intakeDue: createIntakeDueStore(table),
    clock,
    log,
    metrics,
    ...(options.now ? { now: options.now } : {}),
  });
}
