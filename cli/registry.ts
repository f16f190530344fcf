import type { Command } from './command';
import { TAIL_QUEUES } from './tail-queues';

/** A command as the list knows it: its name, its summary and how to load the rest. */
export interface CommandEntry {
  readonly name: string;
  /** One line for the command list (`--help`, the `npm start` banner). */
  readonly summary: string;
  /** Imports the command's module: a run loads its own command and what it uses, no other. */
  readonly load: () => Promise<Command>;
}

/**
 * Every command of `npm run cli`, in the order `--help` lists them. The `npm start` banner lists
 * the same (local/banner.ts), so a command added here is advertised there too. The command
 * modules are imported dynamically, in `load`, never at the top of this file
 * (test/unit/cli/registry.test.ts checks).
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'demo',
    summary: 'the whole export loop in one go against a running `npm start`, down to the file',
    load: () => import('./commands/demo/demo').then((m) => m.demoCommand),
  },
  {
    name: 'callback',
    summary: 'sign one execution callback and POST it to /v1/callbacks/<app>',
    load: () => import('./commands/callback').then((m) => m.callbackCommand),
  },
  {
    name: 'keygen',
    summary: 'new callback keys: a whsk_/whpk_ ed25519 pair and a whsec_ secret',
    load: () => import('./commands/keygen').then((m) => m.keygenCommand),
  },
  {
    name: 'send-event',
    summary: 'send a ledger CloudEvent (credit, debit or transfer) to the ledger-events queue',
    load: () => import('./commands/send-event').then((m) => m.sendEventCommand),
  },
  {
    name: 'batch',
    summary: 'import a file of operations through POST /v1/batches, 100 at a time',
    load: () => import('./commands/batch').then((m) => m.batchCommand),
  },
  {
    name: 'tail',
    summary: `print the messages on ${TAIL_QUEUES.join(', ')} (--journal: the journal events)`,
    load: () => import('./commands/tail/tail').then((m) => m.tailCommand),
  },
  {
    name: 'redrive',
    summary: 'move dead letters back to their source queue (SQS move task on AWS, copy locally)',
    load: () => import('./commands/redrive').then((m) => m.redriveCommand),
  },
  {
    name: 'reown',
    summary: 'move an account and everything under it to another principal (operators)',
    load: () => import('./commands/reown').then((m) => m.reownCommand),
  },
  {
    name: 'gaps-backfill',
    summary: 'put ledger-event gaps recorded before gap re-fetch into the due index (operators)',
    load: () => import('./commands/gaps-backfill').then((m) => m.gapsBackfillCommand),
  },
  {
    name: 'accounts-backfill',
    summary: "put accounts created before the console's account directory into it (operators)",
    load: () => import('./commands/accounts/backfill').then((m) => m.accountsBackfillCommand),
  },
  {
    name: 'reconcile',
    summary: 'check the books: journal, entries, balances, holds, zero-sum (operators)',
    load: () => import('./commands/reconcile').then((m) => m.reconcileCommand),
  },
  {
    name: 'intake',
    summary: 'resolve a set-aside pending credit (operators)',
    load: () => import('./commands/intake/resolve').then((m) => m.intakeCommand),
  },
  {
    name: 'verify',
    summary: "recompute journals' hash chain and arithmetic (operators)",
    load: () => import('./commands/verify').then((m) => m.verifyCommand),
  },
  {
    name: 'statement',
    summary: "an account's statement of an effective-time window (docs/contract.md §26)",
    load: () => import('./commands/statement').then((m) => m.statementCommand),
  },
  {
    name: 'settings',
    summary: "change an account's credit intake or overdraft limit (docs/contract.md §24)",
    load: () => import('./commands/settings').then((m) => m.settingsCommand),
  },
  {
    name: 'pending-credits',
    summary: "a deferred account's credits not posted yet, oldest first (docs/contract.md §24)",
    load: () => import('./commands/pending-credits').then((m) => m.pendingCreditsCommand),
  },
  {
    name: 'search',
    summary:
      'find entries (or accounts) by metadata, reference or payment id (docs/contract.md §34)',
    load: () => import('./commands/search').then((m) => m.searchCommand),
  },
  {
    name: 'webhooks',
    summary: 'webhooks listen: a loopback receiver that verifies and prints deliveries',
    load: () => import('./commands/webhooks/listen').then((m) => m.webhooksCommand),
  },
];
