import { describe, expect, it } from 'vitest';
import { accountsBackfillCommand } from '../../../cli/commands/accounts/backfill';
import { gapsBackfillCommand } from '../../../cli/commands/gaps-backfill';
import { parseReconcileArgs, reconcileCommand } from '../../../cli/commands/reconcile';
import { reownCommand } from '../../../cli/commands/reown';
import { operatorTable, operatorTableHelp } from '../../../cli/operator-dynamo';

/** The operator commands say where the table is with one option block (cli/operator-dynamo.ts). */
describe('operator commands: --aws, --table, --dynamodb', () => {
  it('read the local stack by default and AWS with --aws, where --table is required', () => {
    expect(operatorTable({}, { DYNAMODB_PORT: '8100' }, 'reconcile')).toEqual({
      aws: false,
      dynamodb: 'http://127.0.0.1:8100',
      table: 'ledger',
    });
    expect(operatorTable({ aws: true, table: 'prod-ledger' }, {}, 'reconcile')).toEqual({
      aws: true,
      dynamodb: '',
      table: 'prod-ledger',
    });
    expect(() => operatorTable({ aws: true }, {}, 'reconcile')).toThrow(
      /--table is required with --aws/,
    );
    expect(parseReconcileArgs(['--findings', '--aws', '--table', 'tbl'], {})).toEqual({
      help: false,
      findings: true,
      aws: true,
      dynamodb: '',
      table: 'tbl',
    });
  });

  it("show the same help lines for them, aligned with the command's own options", () => {
    expect(reownCommand.help).toContain(operatorTableHelp());
    expect(reconcileCommand.help).toContain(operatorTableHelp());
    expect(gapsBackfillCommand.help).toContain(operatorTableHelp(27));
    expect(accountsBackfillCommand.help).toContain(operatorTableHelp(27));
    for (const help of [reownCommand.help, reconcileCommand.help, gapsBackfillCommand.help]) {
      // Every option's description starts in one column within a command.
      const columns = help
        .split('\n')
        .map((line) => /^( {2}(?:-h, )?-[^ ]+(?: <[^>]+>)? +)\S/.exec(line)?.[1]?.length)
        .filter((column) => column !== undefined);
      expect(columns.length).toBeGreaterThanOrEqual(4);
      expect(new Set(columns).size).toBe(1);
    }
  });
});
