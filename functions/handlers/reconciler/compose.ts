import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type ReconcileReport, Reconciler } from '../../domain/reconciliation/service';
import { errorFields } from '../../domain/shared/log';
import { countRetry, METRICS } from '../../domain/shared/metrics';
import type { Runtime } from '../../domain/shared/runtime';
import { RECONCILE_SHARD_COUNT } from '../../dynamodb/reconciliation/items';
import { createReconcileStore } from '../../dynamodb/reconciliation/store';
import { resolveRuntime } from '../shared/composition';
import type { ServiceConfig } from '../shared/config';

/** It needs only the table: the CLI runs it with nothing but `--table`. */
export interface ReconcilerComposition extends Partial<Runtime> {
  readonly config: Pick<ServiceConfig, 'tableName'>;
  readonly dynamo: DynamoDBClient;
  /** Stop starting new accounts after this long. @default unlimited */
  readonly budgetMs?: number;
}

/** One reconciliation run: what the hourly Lambda, `npm start` and the CLI run. */
export type ReconcileRun = () => Promise<ReconcileReport>;

/**
 * The reconciler's one composition (docs/contract.md §19), used by the Lambda handler, the local
 * stack, the CLI and the tests. Every new finding is logged as an error and counted by check.
 */
export function composeReconciler(options: ReconcilerComposition): ReconcileRun {
  const { clock, log, metrics } = resolveRuntime(options);
  const table = {
    client: options.dynamo,
    tableName: options.config.tableName,
    retry: { onRetry: countRetry(metrics) },
  };
  const reconciler = new Reconciler(createReconcileStore(table), {
    shardCount: RECONCILE_SHARD_COUNT,
    clock,
    ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
  });
  return async () => {
    let report: ReconcileReport;
    try {
      report = await reconciler.run();
    } catch (error) {
      log.error('reconciliation run failed; checkpoints keep what it finished', errorFields(error));
      throw error;
    }
    for (const finding of report.findings) {
      log.error('reconciliation mismatch', { ...finding });
      metrics.count(METRICS.reconciliationMismatches);
      if (finding.check === 'journal_version_gap') metrics.count(METRICS.journalVersionGapFindings);
      if (finding.check === 'hash_chain') metrics.count(METRICS.journalHashChainBreaks);
    }
    metrics.count(METRICS.reconciledRecords, report.records);
    if (report.accounts > 0) {
      log.info('reconciled', {
        accounts: report.accounts,
        records: report.records,
        findings: report.findings.length,
        moved: report.moved,
      });
    }
    if (report.truncated) log.warn('reconciliation stopped at its time budget; the rest waits', {});
    return report;
  };
}
