import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createReconcileStore } from '../../../functions/dynamodb/reconciliation/store';
import type { FindingsPage } from '../../shared/api';

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
