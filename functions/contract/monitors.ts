/**
 * One definition per balance-monitor fact (docs/contract.md §28): the event's type, how its id
 * is made, the limit per account. The routes, the projector, the docs and the tests import these.
 */
import { padSequence } from './journal';

/** `type` of the CloudEvent a monitor publishes when its truth flips. */
export const MONITOR_EVENT_TYPE = 'ledger.balance_monitor.v1';

/** At most this many monitors per account; the next one is `409 monitor_limit_reached`. */
export const MAX_MONITORS_PER_ACCOUNT = 10;

/** `id` of a flip's event: `<monitorId>:<the record's sequence, 16 digits>`, one per flip. */
export const monitorEventId = (monitorId: string, sequence: number): string =>
  `${monitorId}:${padSequence(sequence)}`;

/** `description` of a monitor: at most this many characters. */
export const MAX_MONITOR_DESCRIPTION = 200;
