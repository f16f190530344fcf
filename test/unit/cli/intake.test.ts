import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../cli/command';
import { intakeCommand, parseIntakeResolveArgs } from '../../../cli/commands/intake/resolve';

/** `intake resolve` (docs/contract.md §36; docs/operations.md "Set-aside credits"). */
const ACCOUNT = '0B7E8A5E-0000-4000-8000-000000000001';
const CREDIT = '0B7E8A5E-0000-4000-8000-000000000002';

describe('intake resolve arguments', () => {
  it('takes the account, the credit and a new effective time, normalised', () => {
    const args = ['--account', ACCOUNT, '--credit', CREDIT, '--effective-at', '2026-12-01T10:00Z'];
    expect(parseIntakeResolveArgs(args, { DYNAMODB_PORT: '8100' })).toEqual({
      help: false,
      accountId: ACCOUNT.toLowerCase(),
      creditId: CREDIT.toLowerCase(),
      effectiveAt: '2026-12-01T10:00:00.000Z',
      aws: false,
      dynamodb: 'http://127.0.0.1:8100',
      table: 'ledger',
    });
  });

  it.each([
    [['--credit', CREDIT, '--effective-at', '2026-12-01T10:00Z'], /--account is required/],
    [['--account', ACCOUNT, '--effective-at', '2026-12-01T10:00Z'], /--credit is required/],
    [['--account', ACCOUNT, '--credit', CREDIT], /--effective-at is required/],
    [['--account', ACCOUNT, '--credit', CREDIT, '--effective-at', 'soon'], /ISO 8601/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseIntakeResolveArgs(argv, {})).toThrow(message);
  });

  it('knows only the subcommand resolve', async () => {
    const ctx = { env: {}, out: () => undefined } as unknown as CliContext;
    await expect(intakeCommand.run(['settle'], ctx)).rejects.toThrow(/subcommand is resolve/);
  });
});
