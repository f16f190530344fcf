import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Finding } from '../../functions/domain/reconciliation/model';
import { silentLog } from '../../functions/domain/shared/log';
import { createReconcileStore } from '../../functions/dynamodb/reconciliation/store';
import { composeReconciler } from '../../functions/handlers/reconciler/compose';
import type { CliContext } from '../command';
import type { Env } from '../config';
import { operatorCommand } from '../operator-command';
import { type OperatorTable, operatorTableHelp } from '../operator-dynamo';

const NAME = 'reconcile';

export interface ReconcileArgs extends OperatorTable {
  /** List the findings recorded so far instead of running. */
  readonly findings: boolean;
}

export const reconcileCommand = operatorCommand({
  name: NAME,
  help: `Usage: npm run cli -- reconcile [--findings] [--aws] [--table <name>]

Runs the reconciler once (docs/contract.md §19), as the hourly Lambda and npm start do: for every
account whose journal moved since its last check, from that check on, (a) the journal is
contiguous and its arithmetic holds, (b) each record's entry exists and moved the record's amount
and the account stands where its journal ends, (c) balance − available is what its active holds
reserve, (d) every transfer and ledger transaction sums to zero. New findings are printed and
kept in the table; a finding already recorded is not recorded again. It never changes money.
Exit code 1 when this run recorded a finding.

Options:
  --findings        list every finding recorded so far, do not run (exit code 1 if any)
${operatorTableHelp()}
  -h, --help        this help`,
  options: { findings: { type: 'boolean' } },
  parse: (values) => ({ findings: values.findings === true }),
  run: runReconcile,
});

export const parseReconcileArgs = (argv: readonly string[], env: Env) =>
  reconcileCommand.parse(argv, env);

/** One run (or the listing) against `dynamo`; the exit code. */
export async function runReconcile(
  args: ReconcileArgs,
  dynamo: DynamoDBClient,
  ctx: Pick<CliContext, 'out'>,
): Promise<number> {
  if (args.findings) {
    const findings = await createReconcileStore({
      client: dynamo,
      tableName: args.table,
    }).listFindings();
    for (const finding of findings) ctx.out(findingLine(finding));
    ctx.out(`${findings.length} finding(s) in table ${args.table}`);
    return findings.length === 0 ? 0 : 1;
  }
  const run = composeReconciler({
    dynamo,
    config: { tableName: args.table },
    log: silentLog,
  });
  const report = await run();
  for (const finding of report.findings) ctx.out(findingLine(finding));
  ctx.out(
    `reconciled ${report.accounts} account(s), ${report.records} journal record(s): ${report.findings.length} new finding(s)` +
      (report.moved > 0 ? `; ${report.moved} account(s) moved meanwhile, checked next run` : ''),
  );
  return report.findings.length === 0 ? 0 : 1;
}

export function findingLine(f: Finding): string {
  const at = f.sequence === undefined ? '' : ` at record ${f.sequence}`;
  return `FINDING ${f.check} account ${f.accountId}${at}: expected ${f.expected}, got ${f.actual} — ${f.detail} (${f.detectedAt})`;
}
