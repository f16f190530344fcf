import type { _Record, AttributeValue } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, AttributeValue as LambdaAttributeValue } from 'aws-lambda';
import { epochSeconds } from '../../functions/domain/shared/time';

/** One stream record as the Lambda event source mapping delivers it. */
export function toLambdaStreamRecord(
  record: _Record,
  streamArn: string,
  region: string,
): DynamoDBRecord {
  const d = record.dynamodb ?? {};
  const created = d.ApproximateCreationDateTime;
  const lambda: DynamoDBRecord = {
    ...(record.eventID === undefined ? {} : { eventID: record.eventID }),
    ...(record.eventName === undefined ? {} : { eventName: record.eventName }),
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(created === undefined
        ? {}
        : { ApproximateCreationDateTime: epochSeconds(toDate(created)) }),
      ...(d.Keys ? { Keys: toLambdaImage(d.Keys) } : {}),
      ...(d.NewImage ? { NewImage: toLambdaImage(d.NewImage) } : {}),
      ...(d.OldImage ? { OldImage: toLambdaImage(d.OldImage) } : {}),
      ...(d.SequenceNumber === undefined ? {} : { SequenceNumber: d.SequenceNumber }),
      ...(d.SizeBytes === undefined ? {} : { SizeBytes: d.SizeBytes }),
      ...(d.StreamViewType === undefined ? {} : { StreamViewType: d.StreamViewType }),
    },
  };
  // TTL deletions carry { type: "Service", principalId: "dynamodb.amazonaws.com" }.
  if (record.userIdentity) {
    lambda.userIdentity = {
      type: record.userIdentity.Type,
      principalId: record.userIdentity.PrincipalId,
    };
  }
  return lambda;
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

function toLambdaImage(
  image: Record<string, AttributeValue>,
): Record<string, LambdaAttributeValue> {
  const out: Record<string, LambdaAttributeValue> = {};
  for (const [name, value] of Object.entries(image)) {
    const converted = toLambdaValue(value);
    if (converted) out[name] = converted;
  }
  return out;
}

/** The SDK's attribute value (binary as bytes) → Lambda's JSON one (binary as base64). */
function toLambdaValue(value: AttributeValue): LambdaAttributeValue | undefined {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.SS !== undefined) return { SS: [...value.SS] };
  if (value.NS !== undefined) return { NS: [...value.NS] };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) {
    return { L: value.L.map(toLambdaValue).filter((v): v is LambdaAttributeValue => !!v) };
  }
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  return undefined;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}
