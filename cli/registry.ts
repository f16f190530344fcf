import type { Command } from './command';
import { accountsBackfillCommand } from './commands/accounts/backfill';
import { batchCommand } from './commands/batch';
import { callbackCommand } from './commands/callback';
import { demoCommand } from './commands/demo';
import { gapsBackfillCommand } from './commands/gaps-backfill';
import { intakeCommand } from './commands/intake/resolve';
import { keygenCommand } from './commands/keygen';
import { pendingCreditsCommand } from './commands/pending-credits';
import { reconcileCommand } from './commands/reconcile';
import { redriveCommand } from './commands/redrive';
import { reownCommand } from './commands/reown';
import { searchCommand } from './commands/search';
import { sendEventCommand } from './commands/send-event';
import { settingsCommand } from './commands/settings';
import { statementCommand } from './commands/statement';
import { tailCommand } from './commands/tail';
import { verifyCommand } from './commands/verify';
import { webhooksCommand } from './commands/webhooks/listen';

/**
 * Every command of `npm run cli`, in the order `--help` lists them. The `npm start` banner lists
 * the same (local/banner.ts), so a command added here is advertised there too.
 */
export const COMMANDS: readonly Command[] = [
  demoCommand,
  callbackCommand,
  keygenCommand,
  sendEventCommand,
  batchCommand,
  tailCommand,
  redriveCommand,
  reownCommand,
  gapsBackfillCommand,
  accountsBackfillCommand,
  reconcileCommand,
  intakeCommand,
  verifyCommand,
  statementCommand,
  settingsCommand,
  pendingCreditsCommand,
  searchCommand,
  webhooksCommand,
];
