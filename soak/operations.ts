/** The operations a soak plan is made of (soak/plan.ts draws them, soak/draw.ts each one). */

/** The currencies of the soak's accounts (CONTRACT §35: exchanges move both in one transaction). */
export type Currency = 'EUR' | 'USD';

export interface AccountSpec {
  readonly currency: Currency;
  readonly deferred: boolean;
  readonly overdraft: number;
  /** Receives ledger events (never closed: a poison event would depend on timing); EUR only. */
  readonly events: boolean;
  /** Only these are ever closed; they receive nothing but HTTP operations. */
  readonly closable: boolean;
}

export interface MonitorSpec {
  readonly account: number;
  readonly field: 'balance' | 'available';
  readonly operator: 'gte' | 'lt';
  readonly value: number;
}

export type Leg = {
  readonly account: number;
  readonly direction: 'debit' | 'credit';
  readonly amount: number;
  /** The leg's own currency; absent: the transaction's default `currency`. */
  readonly currency?: Currency;
};

/** An exchange rate recorded for audit (§35): 1 `base` = `rate` `quote`; the ledger never converts. */
export interface Rate {
  readonly base: Currency;
  readonly quote: Currency;
  readonly rate: string;
}

/** One movement as a batch operation carries it. */
export type BatchItem =
  | { readonly op: 'credit' | 'debit'; readonly account: number; readonly amount: number }
  | {
      readonly op: 'transfer';
      readonly account: number;
      readonly to: number;
      readonly amount: number;
    };

export type Operation =
  | {
      readonly kind: 'credit' | 'debit';
      readonly account: number;
      readonly amount: number;
      /** Days before the run's start, for a back-dated `effectiveAt`. */
      readonly backdays?: number;
    }
  | {
      readonly kind: 'transfer';
      readonly account: number;
      readonly to: number;
      readonly amount: number;
    }
  | {
      readonly kind: 'ledger';
      /** The default of legs without their own; absent when every leg names one. */
      readonly currency?: Currency;
      readonly legs: readonly Leg[];
      readonly rates?: readonly Rate[];
    }
  | {
      readonly kind: 'hold';
      readonly account: number;
      readonly amount: number;
      readonly short: boolean;
    }
  | { readonly kind: 'capture'; readonly hold: number; readonly amount?: number }
  | { readonly kind: 'void'; readonly hold: number }
  | { readonly kind: 'reverse'; readonly of: number; readonly amount: number }
  | { readonly kind: 'close'; readonly account: number }
  | { readonly kind: 'period'; readonly account: number; readonly backdays: number }
  | {
      readonly kind: 'batch';
      readonly mode: 'independent' | 'atomic';
      readonly items: readonly BatchItem[];
    }
  /** Ledger events of one producer, sent together: shuffled, some twice, with sequence gaps. */
  | { readonly kind: 'events'; readonly items: readonly EventItem[] };

export interface EventItem {
  readonly type: 'credit' | 'debit';
  readonly account: number;
  /** Unique across the run: how the checker tells which event a journal record applied. */
  readonly amount: number;
  readonly sequence: number;
  readonly duplicate: boolean;
}

export type OperationKind = Operation['kind'];
