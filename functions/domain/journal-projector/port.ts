import type { JournalEvent } from '../journal/events';
import type { MonitorEvent } from '../monitors/model';

/** What the projector publishes on the journal topic: journal records and monitor flips (§28). */
export type OutboundEvent = JournalEvent | MonitorEvent;

/** Where the events go (SNS on AWS, fauxqs locally); at least once. */
export interface JournalEventsPort {
  /** Publishes up to 10 events; answers the ids that were NOT accepted (to be retried). */
  publish(events: readonly OutboundEvent[]): Promise<readonly string[]>;
}
