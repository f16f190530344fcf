/**
 * Facts of the HTTP function's invocations (docs/contract.md §25): lib/ deploys the timeout,
 * the local stack and the integration fixture emulate it, a batch's deadline is cut from both.
 */

/** Timeout of the HTTP (and dispatcher) functions, in seconds. */
export const LEDGER_FUNCTION_TIMEOUT_SECONDS = 10;

/** API Gateway answers by itself after 30 s: a request's work ends by 29 s after it started. */
export const API_GATEWAY_BUDGET_MS = 29_000;
