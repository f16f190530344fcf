import { randomUUID } from 'node:crypto';
import type { HttpHandler, HttpResult } from '../../functions/api/types';
import { type EventOptions, httpEvent } from '../../kit/http-event';

/** Parsed JSON body of a response. */
export const bodyOf = (res: HttpResult) => JSON.parse(res.body) as Record<string, unknown>;

/** A small client over the HTTP handler for tests that move money between accounts. */
export function ledgerApi(app: HttpHandler, principal = 'alice') {
  const call = (method: string, path: string, options: EventOptions = {}) =>
    app(httpEvent(method, path, { principal, ...options }));
  const post = (path: string, body: unknown, key: string = randomUUID(), as = principal) =>
    call('POST', path, { principal: as, idempotencyKey: key, body });
  const get = (path: string, as = principal, query?: Record<string, string>) =>
    call('GET', path, { principal: as, ...(query ? { query } : {}) });

  return {
    call,
    post,
    get,
    /** A new account of `as`, credited with `funds` when given. */
    async account(funds = 0, currency = 'EUR', as = principal): Promise<string> {
      const created = await post('/v1/accounts', { currency }, randomUUID(), as);
      if (created.statusCode !== 201) throw new Error(`account: ${created.body}`);
      const id = String(bodyOf(created).id);
      if (funds > 0) {
        const credit = { type: 'credit', amount: funds, currency };
        const res = await post(`/v1/accounts/${id}/transactions`, credit, randomUUID(), as);
        if (res.statusCode !== 201) throw new Error(`credit: ${res.body}`);
      }
      return id;
    },
    /** A new account of `as` created with `body` (e.g. an `overdraftLimit`), credited with `funds`. */
    async accountWith(body: Record<string, unknown>, funds = 0, as = principal): Promise<string> {
      const currency = String(body.currency ?? 'EUR');
      const created = await post('/v1/accounts', { currency, ...body }, randomUUID(), as);
      if (created.statusCode !== 201) throw new Error(`account: ${created.body}`);
      const id = String(bodyOf(created).id);
      if (funds > 0) {
        const credit = { type: 'credit', amount: funds, currency };
        const res = await post(`/v1/accounts/${id}/transactions`, credit, randomUUID(), as);
        if (res.statusCode !== 201) throw new Error(`credit: ${res.body}`);
      }
      return id;
    },
    /** A ledger transaction in EUR over `legs` (docs/contract.md §16). */
    ledgerTransaction(
      legs: readonly { accountId: string; direction: 'debit' | 'credit'; amount: number }[],
      extra: Record<string, unknown> = {},
      key: string = randomUUID(),
      as = principal,
    ) {
      return post('/v1/ledger-transactions', { currency: 'EUR', legs, ...extra }, key, as);
    },
    /** `balance` and `available` as the API shows them. */
    async money(accountId: string, as = principal) {
      const res = await get(`/v1/accounts/${accountId}`, as);
      const body = bodyOf(res);
      return { balance: Number(body.balance), available: Number(body.available) };
    },
    async entries(accountId: string, as = principal) {
      const res = await get(`/v1/accounts/${accountId}/transactions`, as, { limit: '100' });
      return (bodyOf(res).items as Record<string, unknown>[]) ?? [];
    },
  };
}
