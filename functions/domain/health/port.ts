/** What the health check needs from storage (docs/contract.md §5, `GET /v1/health`). */
export interface HealthPort {
  /** Resolves once the ledger table answered one read; throws whatever storage threw. */
  readTable(): Promise<void>;
}
