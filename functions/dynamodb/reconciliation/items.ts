export { markerItem, RECONCILE_SHARD_COUNT, reconcileShardOf } from '../journal/marker';

/** The finding item, shared with the folder that sets credits aside (§36). */
export { findingAttributes, toFinding } from '../table/findings';
