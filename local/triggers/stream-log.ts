import type { DynamoDBStreamEvent } from 'aws-lambda';

/**
 * The stream poller's log lines, one per batch and per shard change, short enough to read in
 * a terminal: `shard …dedb43dc: 3 record(s) seq 40-42 (INSERT 3) -> ok (12 ms)`.
 */

/** What a batch line starts with: the shard, how many records, their sequence range and kinds. */
export function batchHead(shardId: string, event: DynamoDBStreamEvent): string {
  return `${shardName(shardId)}: ${event.Records.length} record(s) ${sequenceRange(event)} ${eventNames(event)}`;
}

/** A new shard, and its parent when it has one. */
export function newShardLine(shardId: string, parentId: string | undefined): string {
  return `new shard ${short(shardId)}${parentId ? ` (child of ${short(parentId)})` : ''}`;
}

/** `shard …dedb43dc`: how every line about one shard begins. */
export function shardName(shardId: string): string {
  return `shard ${short(shardId)}`;
}

function sequenceRange(event: DynamoDBStreamEvent): string {
  const first = event.Records[0]?.dynamodb?.SequenceNumber ?? '?';
  const last = event.Records.at(-1)?.dynamodb?.SequenceNumber ?? '?';
  return first === last ? `seq ${trimSeq(first)}` : `seq ${trimSeq(first)}-${trimSeq(last)}`;
}

/** DynamoDB Local pads sequence numbers with zeros (000000000000000000042); show 42. */
function trimSeq(seq: string): string {
  return seq.replace(/^0+(?=\d)/, '');
}

function eventNames(event: DynamoDBStreamEvent): string {
  const counts = new Map<string, number>();
  for (const r of event.Records) {
    const name = r.eventName ?? '?';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return `(${[...counts].map(([n, c]) => `${n} ${c}`).join(', ')})`;
}

/** shardId-00000001795972442179-dedb43dc → …dedb43dc (unique enough for a log line). */
function short(shardId: string): string {
  const tail = shardId.split('-').at(-1) ?? shardId;
  return tail.length < shardId.length ? `…${tail}` : shardId;
}
