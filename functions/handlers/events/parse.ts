import { GAP_WAIVED_EVENT_TYPE } from '../../contract/gaps';
import { legCurrency, sumsByCurrency } from '../../domain/accounts/ledger-currencies';
import type { LedgerEventInput } from '../../domain/events/model';
import type { GapWaiverInput } from '../../domain/events/waiver';
import { eventContentHash, type Json } from '../../domain/idempotency/fingerprint';
import { illFormedPath, protoKeyPath } from '../../domain/shared/unicode';
import {
  GapWaivedEventSchema,
  LEDGER_EVENT_TYPES,
  type LedgerEvent,
  LedgerEventSchema,
} from '../../schemas/events';
import type { PoisonCode } from './poison';

export type ParsedRecord =
  | { readonly ok: true; readonly event: LedgerEventInput }
  /** `ledger.gap.waived.v1` (docs/contract.md §18). */
  | { readonly ok: true; readonly waiver: GapWaiverInput }
  | { readonly ok: false; readonly code: PoisonCode; readonly detail: string };

/** Parses an SQS body into a ledger event, or says why it can never be applied. */
export function parseLedgerEvent(body: string): ParsedRecord {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, code: 'invalid_json', detail: 'body is not JSON' };
  }
  const illFormed = illFormedPath(json);
  if (illFormed !== undefined) {
    return {
      ok: false,
      code: 'validation_failed',
      detail: `${illFormed || '(event)'}: must be well-formed Unicode (no lone surrogates)`,
    };
  }
  const proto = protoKeyPath(json);
  if (proto !== undefined) {
    return { ok: false, code: 'schema_invalid', detail: `${proto}: is not an accepted key` };
  }
  if ((json as { type?: unknown } | null)?.type === GAP_WAIVED_EVENT_TYPE) return parseWaiver(json);
  const result = LedgerEventSchema.safeParse(json);
  if (!result.success) return schemaInvalid(result.error.issues);
  const e = result.data;
  return {
    ok: true,
    event: {
      source: e.source,
      id: e.id,
      type: LEDGER_EVENT_TYPES[e.type],
      accountId: e.subject,
      sequence: e.sequence,
      ...dataOf(e),
      contentHash: eventContentHash(e as Record<string, Json>),
    },
  };
}

function schemaInvalid(issues: readonly { path: PropertyKey[]; message: string }[]): ParsedRecord {
  const detail = issues
    .map((i) => `${i.path.map(String).join('.') || '(event)'}: ${i.message}`)
    .join('; ');
  return { ok: false, code: 'schema_invalid', detail };
}

/** A waiver without numbers or without a reason is poison `schema_invalid`. */
function parseWaiver(json: unknown): ParsedRecord {
  const result = GapWaivedEventSchema.safeParse(json);
  if (!result.success) return schemaInvalid(result.error.issues);
  const e = result.data;
  return {
    ok: true,
    waiver: {
      source: e.source,
      id: e.id,
      accountId: e.subject,
      numbers: e.data.numbers,
      reason: e.data.reason,
      contentHash: eventContentHash(e as Record<string, Json>),
    },
  };
}

/** What the event's `data` asks for, in the domain's terms. */
function dataOf(e: LedgerEvent) {
  const common = {
    paymentId: e.data.paymentId,
    reference: e.data.reference,
    ...(e.data.metadata === undefined ? {} : { metadata: e.data.metadata }),
    ...(e.data.effectiveAt === undefined ? {} : { effectiveAt: e.data.effectiveAt }),
  };
  if (e.type === 'ledger.transaction.v1') {
    const { currency, legs, rates } = e.data;
    const transaction = {
      ...(currency === undefined ? {} : { currency }),
      legs,
      ...(rates === undefined ? {} : { rates }),
    };
    const first = legs[0];
    return {
      ...common,
      currency: first ? legCurrency(e.data, first) : (currency ?? ''),
      amount: sumsByCurrency(e.data).reduce((total, sum) => total + sum.debits, 0),
      transaction,
    };
  }
  return {
    ...common,
    currency: e.data.currency,
    ...(e.data.toAccountId === undefined ? {} : { toAccountId: e.data.toAccountId }),
    amount: e.data.amount,
  };
}
