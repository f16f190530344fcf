/** The response an idempotency record replays, byte for byte. */
export interface StoredResponse {
  readonly statusCode: number;
  readonly body: string;
}

export interface IdempotencyRecord extends StoredResponse {
  readonly fingerprint: string;
  /** Epoch seconds after which the record counts as absent. */
  readonly expiresAt: number;
  /** The writer token of the attempt that committed it, when it had one (hedged-claims.ts). */
  readonly writer?: string;
}
