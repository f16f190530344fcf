import { type ReconcileReport, Reconciler } from '../../domain/reconciliation/service';
import { errorFields } from '../../domain/shared/log';
import { METRICS } from '../../domain/shared/metrics';
import { RECONCILE_SHARD_COUNT } from '../../dynamodb/reconciliation/items';
import { createReconcileStore } from '../../dynamodb/reconciliation/store';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { ServiceConfig } from '../shared/config';

export interface ReconcilerComposition extends TableComposition<ServiceConfig> {
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
  const table = tableOptions(options, metrics);
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
      metrics.count(METRICS.reconciliationMismatches, 1, { name: 'check', value: finding.check });
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
