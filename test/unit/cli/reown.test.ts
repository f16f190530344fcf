import { describe, expect, it } from 'vitest';
import { parseReownArgs } from '../../../cli/commands/reown';
import { runCli } from '../../../cli/run';
import { recordingContext } from '../../support/cli/context';

const ACCOUNT = '0B7E8A5E-0000-4000-8000-000000000001';
const ROLE = 'arn:aws:sts::123456789012:assumed-role/tenant-a';

describe('reown arguments (docs/operations.md "Re-owning an account")', () => {
  it('targets the local stack by default, like the other commands', () => {
    expect(
      parseReownArgs(['--account', ACCOUNT, '--to', 'bob'], { DYNAMODB_PORT: '8100' }),
    ).toEqual({
      help: false,
      accountId: ACCOUNT.toLowerCase(),
      to: 'bob',
      withLinked: false,
      aws: false,
      dynamodb: 'http://127.0.0.1:8100',
      table: 'ledger',
    });
    expect(
      parseReownArgs(
        ['--account', ACCOUNT, '--to', ROLE, '--with-linked', '--aws', '--table', 'prod-ledger'],
        {},
      ),
    ).toMatchObject({ aws: true, dynamodb: '', table: 'prod-ledger', withLinked: true, to: ROLE });
  });

  it.each([
    [['--to', 'bob'], /--account is required/],
    [['--account', 'not-a-uuid', '--to', 'bob'], /--account must be a UUID/],
    [['--account', ACCOUNT], /--to is required/],
    [
      ['--account', ACCOUNT, '--to', `${ROLE}/session-1`],
      /the principal is the role: arn:aws:sts::123456789012:assumed-role\/tenant-a$/,
    ],
    [['--account', ACCOUNT, '--to', 'bob', '--aws'], /--table is required with --aws/],
    [
      ['--account', ACCOUNT, '--to', 'bob', '--table', 'a b'],
      /--table must be a DynamoDB table name/,
    ],
  ])('refuses %j', (argv, message) => {
    expect(() => parseReownArgs(argv, {})).toThrow(message);
  });

  it('is listed, and its help says what moves and that it resumes', async () => {
    const { ctx, lines: out } = recordingContext({ env: {} });
    expect(await runCli(['reown', '--help'], ctx)).toBe(0);
    expect(out.join('\n')).toMatch(/holds, export tasks, transfers/);
    expect(out.join('\n')).toMatch(/carries on where it stopped/);
    out.length = 0;
    expect(await runCli(['help'], ctx)).toBe(0);
    expect(out.join('\n')).toMatch(/reown +move an account and everything under it/);
  });
});
