import { randomUUID } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';

export interface EventSpec {
  id?: string;
  source?: string;
  type?: 'ledger.credit.v1' | 'ledger.debit.v1' | 'ledger.transfer.v1' | 'ledger.transaction.v1';
  /** `data.toAccountId` of a transfer. */
  toAccountId?: string;
  subject: string;
  sequence?: number | string;
  amount?: number;
  currency?: string;
  paymentId?: string;
  /** `data.legs` of a `ledger.transaction.v1` (docs/contract.md §16): no `amount` then. */
  legs?: readonly { accountId: string; direction: 'debit' | 'credit'; amount: number }[];
  metadata?: Record<string, string>;
  /** `data.effectiveAt` (docs/contract.md §26). */
  effectiveAt?: string;
}

/** A CloudEvents 1.0 ledger event body as producers send it (docs/contract.md §6). */
export function ledgerEvent(spec: EventSpec): Record<string, unknown> {
  return {
    specversion: '1.0',
    id: spec.id ?? randomUUID(),
    source: spec.source ?? 'urn:producer:a',
    type: spec.type ?? 'ledger.credit.v1',
    subject: spec.subject,
    ...(spec.sequence === undefined ? {} : { sequence: spec.sequence }),
    time: '2026-11-29T10:00:00Z',
    datacontenttype: 'application/json',
    data: {
      ...(spec.toAccountId === undefined ? {} : { toAccountId: spec.toAccountId }),
      ...(spec.legs === undefined ? { amount: spec.amount ?? 100 } : { legs: spec.legs }),
      currency: spec.currency ?? 'EUR',
      ...(spec.paymentId === undefined ? {} : { paymentId: spec.paymentId }),
      ...(spec.metadata === undefined ? {} : { metadata: spec.metadata }),
      ...(spec.effectiveAt === undefined ? {} : { effectiveAt: spec.effectiveAt }),
    },
  };
}

/** A `ledger.gap.waived.v1` body (docs/contract.md §18): `data` as given, so tests can omit parts. */
export function gapWaiver(spec: {
  id?: string;
  source?: string;
  subject: string;
  data: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    specversion: '1.0',
    id: spec.id ?? randomUUID(),
    source: spec.source ?? 'urn:producer:a',
    type: 'ledger.gap.waived.v1',
    subject: spec.subject,
    time: '2026-11-29T10:00:00Z',
    datacontenttype: 'application/json',
    data: spec.data,
  };
}

/** An SQS record shaped like the Lambda event source mapping delivers it. */
export function sqsRecord(body: unknown, messageId: string = randomUUID()): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(Date.now()),
      SenderId: 'AIDAEXAMPLE',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:ledger-events',
    awsRegion: 'us-east-1',
  };
}

export const sqsEvent = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
