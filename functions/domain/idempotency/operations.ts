/**
 * Operation ids of the idempotent commands. An operation id is part of every stored
 * idempotency key (its scope and its fingerprint, docs/contract.md §4): changing a value
 * re-scopes every stored key and turns retries into new requests. The values are the route
 * templates the service started with; they stay these strings even if a route is renamed.
 * A new command gets its own id once, and keeps it forever.
 */
export const OPERATION_IDS = {
  createAccount: 'POST /v1/accounts',
  postTransaction: 'POST /v1/accounts/{accountId}/transactions',
  createExport: 'POST /v1/accounts/{accountId}/exports',
  rerunTask: 'POST /v1/tasks/{taskId}/reruns',
  createTransfer: 'POST /v1/transfers',
  placeHold: 'POST /v1/accounts/{accountId}/holds',
  captureHold: 'POST /v1/holds/{holdId}/captures',
  voidHold: 'POST /v1/holds/{holdId}/voids',
  closeAccount: 'POST /v1/accounts/{accountId}/close',
  createLedgerTransaction: 'POST /v1/ledger-transactions',
  reverseEntry: 'POST /v1/accounts/{accountId}/transactions/{entryId}/reversals',
  reverseTransfer: 'POST /v1/transfers/{transferId}/reversals',
  reverseLedgerTransaction: 'POST /v1/ledger-transactions/{ledgerTransactionId}/reversals',
  createMonitor: 'POST /v1/accounts/{accountId}/monitors',
  createBatch: 'POST /v1/batches',
  closePeriod: 'POST /v1/accounts/{accountId}/period-closes',
  changeSettings: 'POST /v1/accounts/{accountId}/settings',
  createWebhookEndpoint: 'POST /v1/webhook-endpoints',
  rotateWebhookSecret: 'POST /v1/webhook-endpoints/{endpointId}/secret-rotations',
} as const;

export type OperationId = (typeof OPERATION_IDS)[keyof typeof OPERATION_IDS];
