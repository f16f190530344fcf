import { randomUUID } from 'node:crypto';
import type { LedgerClient } from '../../client/index';
import type { CallbackHeaders } from '../callbacks';
import { type Check, CheckFailed, describeAnswer, expectThat, skip } from './check';

/** How the smoke test signs a callback: the application and the headers for a body. */
export interface CallbackProbe {
  readonly applicationId: string;
  /** Which header set the signature uses (shown in the table). */
  readonly scheme: string;
  headersFor(rawBody: string, eventId: string): CallbackHeaders;
}

/**
 * A signed callback round trip (docs/contract.md §7) on an export of the throwaway account: applied
 * (or stale/superseded when a real worker got there first), the same event again is a
 * duplicate, and a body changed after signing is refused.
 */
export function callbackChecks(
  client: LedgerClient,
  probe: CallbackProbe | undefined,
  needAccount: () => string,
): Check[] {
  if (!probe) {
    return [['signed callback round trip', async () => skip('no callback secret given')]];
  }
  let sent: { body: string; headers: CallbackHeaders } | undefined;
  return [
    [
      `signed callback is accepted (${probe.scheme})`,
      async () => {
        const task = await createExport(client, needAccount());
        const eventId = randomUUID();
        const body = JSON.stringify({
          specversion: '1.0',
          id: eventId,
          source: 'urn:idempotent-ledger:smoke',
          type: 'export.execution.progress',
          sequence: 1,
          applicationid: probe.applicationId,
          executionid: task.currentExecutionId,
          taskid: task.id,
          data: { status: 'RUNNING', progress: 10 },
        });
        const headers = probe.headersFor(body, eventId);
        const outcome = await post(client, probe.applicationId, body, headers);
        expectThat(
          ['applied', 'stale', 'superseded'].includes(outcome),
          `outcome ${outcome}, expected applied`,
        );
        sent = { body, headers };
        return `200 ${outcome}`;
      },
    ],
    [
      'the same callback again is a duplicate',
      async () => {
        if (!sent) return skip('no callback was accepted');
        const outcome = await post(client, probe.applicationId, sent.body, sent.headers);
        expectThat(outcome === 'duplicate', `outcome ${outcome}, expected duplicate`);
        return '200 duplicate';
      },
    ],
    [
      'a callback changed after signing is refused',
      async () => {
        if (!sent) return skip('no callback was accepted');
        const tampered = sent.body.replace('"progress":10', '"progress":11');
        const { response, error } = await client.POST('/v1/callbacks/{applicationId}', {
          params: { path: { applicationId: probe.applicationId }, header: sent.headers },
          body: JSON.parse(tampered),
          bodySerializer: () => tampered,
        });
        expectThat(
          response.status === 401 && error?.code === 'invalid_signature',
          `answered ${describeAnswer(response, error)}`,
        );
        return '401 invalid_signature';
      },
    ],
  ];
}

async function createExport(client: LedgerClient, accountId: string) {
  // Enough for the export fee whatever the deployment charges.
  const credit = await client.POST('/v1/accounts/{accountId}/transactions', {
    params: { path: { accountId }, header: { 'Idempotency-Key': randomUUID() } },
    body: { type: 'credit', amount: 1_000_000, currency: 'EUR' },
  });
  expectThat(credit.response.status === 201, `credit answered ${credit.response.status}`);
  const { data, response, error } = await client.POST('/v1/accounts/{accountId}/exports', {
    params: { path: { accountId }, header: { 'Idempotency-Key': randomUUID() } },
    body: { format: 'csv' },
  });
  if (response.status !== 202 || !data) {
    throw new CheckFailed(`creating an export answered ${describeAnswer(response, error)}`);
  }
  return data;
}

/** POSTs the exact signed bytes; returns the outcome of a 200, fails otherwise. */
async function post(
  client: LedgerClient,
  applicationId: string,
  body: string,
  headers: CallbackHeaders,
): Promise<string> {
  const { data, response, error } = await client.POST('/v1/callbacks/{applicationId}', {
    params: { path: { applicationId }, header: headers },
    body: JSON.parse(body),
    bodySerializer: () => body,
  });
  expectThat(response.status === 200 && !!data, `answered ${describeAnswer(response, error)}`);
  return data.outcome;
}
