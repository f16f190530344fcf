import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createReconcileStore } from '../../../functions/dynamodb/reconciliation/store';
import type { FindingsPage, IntakePage } from '../../shared/api';

/** The reconciliation findings the reconciler recorded (docs/contract.md §19), newest first. */
export function createFindings(client: DynamoDBClient, tableName: string) {
  const store = createReconcileStore({ client, tableName });
  return {
    async list(): Promise<FindingsPage> {
      const findings = await store.listFindings();
      return {
        findings: findings
          .map((f) => ({
            accountId: f.accountId,
            check: f.check,
            ...(f.sequence === undefined ? {} : { sequence: f.sequence }),
            expected: String(f.expected),
            actual: String(f.actual),
            detail: f.detail,
            detectedAt: f.detectedAt,
          }))
          .sort((a, b) => b.detectedAt.localeCompare(a.detectedAt)),
      };
    },
  };
}

export type Findings = ReturnType<typeof createFindings>;

/**
 * Intake lag (deferred credits, a later feature): deferred credits are not in this build, so the page says
 * so; the feature's branch fills it in with its pending-credit reader.
 */
export function intakePage(): IntakePage {
  return {
    enabled: false,
    reason:
      'Deferred credits are not enabled in this build: no account receives through an intake, so there is no lag to show.',
  };
}
