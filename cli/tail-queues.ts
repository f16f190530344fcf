import { GAP_TAP_QUEUE_NAME } from '../functions/contract/gaps';
import { JOURNAL_TAP_QUEUE_NAME } from '../functions/contract/journal';
import { QUEUE_NAMES } from '../functions/contract/names';

/**
 * The queues `tail` reads (cli/commands/tail/tail.ts). Its own module, so the registry's summary of
 * tail (cli/registry.ts) names them without loading the command and the SQS client; outside
 * cli/commands/ because the registry imports nothing from there statically (registry.test.ts).
 */
export const TAIL_QUEUES = [
  QUEUE_NAMES.ledgerEventsDeadLetter,
  // Accounts whose pending credits the folder failed to post on 5 receives (§31).
  QUEUE_NAMES.creditIntakeDeadLetter,
  QUEUE_NAMES.exportJobs,
  JOURNAL_TAP_QUEUE_NAME,
  GAP_TAP_QUEUE_NAME,
] as const;
export type TailQueue = (typeof TAIL_QUEUES)[number];
