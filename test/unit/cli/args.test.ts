import { describe, expect, it } from 'vitest';
import { parseCallbackArgs } from '../../../cli/commands/callback';
import { parseDemoArgs } from '../../../cli/commands/demo/demo';
import { parseSendEventArgs } from '../../../cli/commands/send-event';
import { journalLine } from '../../../cli/commands/tail/format';
import { parseTailArgs } from '../../../cli/commands/tail/tail';
import { apiUrl, secretsFor, sqsEndpoint } from '../../../cli/config';
import { CliError, UsageError } from '../../../cli/errors';
import { DEMO_CALLBACK_SECRET } from '../../../functions/contract/local-stack';

const EXECUTION = '6f1c9a52-3c1e-4f7a-9d3e-0b8f1f0e2a11';
const TASK = '0d7c2b1a-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('callback arguments', () => {
  it('reads every option, with the local defaults for app, signing and URL', () => {
    expect(
      parseCallbackArgs(
        [
          '--execution',
          EXECUTION,
          '--task',
          TASK,
          '--sequence',
          '2',
          '--status',
          'RUNNING',
          '--progress',
          '50',
        ],
        {},
      ),
    ).toEqual({
      help: false,
      executionId: EXECUTION,
      taskId: TASK,
      sequence: 2,
      status: 'RUNNING',
      progress: 50,
      id: undefined,
      app: 'export-worker',
      signing: { scheme: undefined, secret: undefined, signingKey: undefined },
      url: 'http://127.0.0.1:3000',
    });
  });

  it('takes --app, --secret and --url, and the port from PORT', () => {
    const args = parseCallbackArgs(
      ['--execution', EXECUTION, '--sequence', '1', '--app', 'billing', '--secret', 's3cret'],
      { PORT: '4000' },
    );
    expect(args).toMatchObject({
      app: 'billing',
      signing: { secret: 's3cret' },
      url: 'http://127.0.0.1:4000',
    });
    expect(
      parseCallbackArgs(['--execution', EXECUTION, '--sequence', '1', '--url', 'http://h:1/'], {}),
    ).toMatchObject({ url: 'http://h:1' });
  });

  it('answers --help without requiring anything', () => {
    expect(parseCallbackArgs(['--help'], {})).toEqual({ help: true });
    expect(parseCallbackArgs(['-h'], {})).toEqual({ help: true });
  });

  it.each([
    [['--sequence', '1'], '--execution is required'],
    [['--execution', 'nope', '--sequence', '1'], '--execution must be a UUID'],
    [['--execution', EXECUTION], '--sequence is required'],
    [['--execution', EXECUTION, '--sequence', '0'], '--sequence must be a whole number from 1'],
    [['--execution', EXECUTION, '--sequence', '1.5'], '--sequence must be a whole number'],
    [['--execution', EXECUTION, '--sequence', '1', '--progress', '101'], '--progress must be'],
    [['--execution', EXECUTION, '--sequence', '1', '--status', 'DONE'], '--status must be one of'],
    [['--execution', EXECUTION, '--sequence', '1', '--bogus'], "Unknown option '--bogus'"],
    [['--execution', EXECUTION, '--sequence', '1', 'extra'], 'Unexpected argument'],
    [
      ['--execution', EXECUTION, '--sequence', '1', '--url', 'ftp://x'],
      '--url must be an http(s) URL',
    ],
  ])('rejects %j with a usage error', (argv, message) => {
    let error: unknown;
    try {
      parseCallbackArgs(argv, {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(message);
    expect((error as UsageError).command).toBe('callback');
    expect((error as UsageError).exitCode).toBe(2);
  });
});

describe('send-event arguments', () => {
  const now = new Date('2026-11-29T10:00:00Z');

  it('builds a contract §6 CloudEvent', () => {
    const args = parseSendEventArgs(
      ['--account', 'acc-1', '--amount', '1000', '--sequence', '3', '--id', 'evt-1'],
      {},
      now,
    );
    expect(args).toEqual({
      help: false,
      event: {
        specversion: '1.0',
        id: 'evt-1',
        source: 'urn:idempotent-ledger:cli',
        type: 'ledger.credit.v1',
        subject: 'acc-1',
        sequence: 3,
        time: '2026-11-29T10:00:00.000Z',
        datacontenttype: 'application/json',
        data: { amount: 1000, currency: 'EUR' },
      },
      sqs: 'http://127.0.0.1:4566',
    });
  });

  it('takes a debit, currency, source, paymentId and the SQS endpoint from the environment', () => {
    const args = parseSendEventArgs(
      [
        '--account',
        'acc-1',
        '--amount',
        '5',
        '--type',
        'debit',
        '--currency',
        'usd',
        '--source',
        'urn:bank',
        '--payment-id',
        'p-1',
      ],
      { SQS_PORT: '4577' },
      now,
    );
    expect(args).toMatchObject({
      event: {
        type: 'ledger.debit.v1',
        source: 'urn:bank',
        data: { amount: 5, currency: 'USD', paymentId: 'p-1' },
      },
      sqs: 'http://127.0.0.1:4577',
    });
    expect(
      parseSendEventArgs(['--account', 'a', '--amount', '1'], { SQS_ENDPOINT: 'http://q:9/' }),
    ).toMatchObject({
      sqs: 'http://q:9',
    });
  });

  it('requires --account and a positive whole --amount, and a known --type', () => {
    expect(() => parseSendEventArgs(['--amount', '1'], {})).toThrow('--account is required');
    expect(() => parseSendEventArgs(['--account', 'a'], {})).toThrow('--amount is required');
    expect(() => parseSendEventArgs(['--account', 'a', '--amount', '0'], {})).toThrow(
      '--amount must be a whole number from 1',
    );
    expect(() =>
      parseSendEventArgs(['--account', 'a', '--amount', '1', '--type', 'x'], {}),
    ).toThrow('--type must be one of credit, debit, transfer');
  });

  it('builds a ledger.transfer.v1 with --to, and refuses --to without --type transfer', () => {
    const args = parseSendEventArgs(
      ['--type', 'transfer', '--account', 'a', '--to', 'b', '--amount', '300'],
      {},
      now,
    );
    expect(args).toMatchObject({
      event: {
        type: 'ledger.transfer.v1',
        subject: 'a',
        data: { toAccountId: 'b', amount: 300, currency: 'EUR' },
      },
    });
    expect(() =>
      parseSendEventArgs(['--type', 'transfer', '--account', 'a', '--amount', '1'], {}),
    ).toThrow('--to <account id> goes with --type transfer');
    expect(() => parseSendEventArgs(['--account', 'a', '--to', 'b', '--amount', '1'], {})).toThrow(
      '--to <account id> goes with --type transfer',
    );
  });
});

describe('tail arguments', () => {
  it('reads the queue and flags', () => {
    expect(parseTailArgs(['--queue', 'export-jobs'], {})).toEqual({
      help: false,
      queue: 'export-jobs',
      follow: false,
      delete: false,
      json: false,
      waitSeconds: 0,
      sqs: 'http://127.0.0.1:4566',
    });
    expect(
      parseTailArgs(['-q', 'ledger-events-dlq', '-f', '--delete', '--json'], {}),
    ).toMatchObject({
      queue: 'ledger-events-dlq',
      follow: true,
      delete: true,
      json: true,
    });
  });

  it('tails credit-intake-dlq (docs/contract.md §24)', () => {
    expect(parseTailArgs(['--queue', 'credit-intake-dlq'], {})).toMatchObject({
      queue: 'credit-intake-dlq',
    });
  });

  it('reads --journal as the journal tap queue, and refuses it with --queue', () => {
    expect(parseTailArgs(['--journal', '-f'], {})).toMatchObject({
      queue: 'ledger-journal-tap',
      follow: true,
    });
    expect(() => parseTailArgs(['--journal', '--queue', 'export-jobs'], {})).toThrow(
      /leave out --queue/,
    );
  });

  it('prints a journal event as one line: sequence, kind, deltas, after-values, ids', () => {
    const event = {
      time: '2026-12-01T10:00:00.000Z',
      subject: 'acc-1',
      data: {
        sequence: 7,
        kind: 'capture',
        balanceDelta: -200,
        availableDelta: 100,
        balanceAfter: 800,
        availableAfter: 800,
        entryId: 'e-1',
        holdId: 'h-1',
      },
    };
    expect(journalLine({ MessageId: 'm', Body: JSON.stringify(event) })).toBe(
      '2026-12-01T10:00:00.000Z acc-1 #7 capture       balance -200 = 800, available +100 = 800 entryId=e-1 holdId=h-1',
    );
    expect(journalLine({ MessageId: 'm', Body: 'not json' })).toContain('--- message m');
  });

  it('prints a balance monitor flip on the same topic as one line (docs/contract.md §28)', () => {
    const event = {
      time: '2026-12-01T10:00:00.000Z',
      subject: 'acc-1',
      type: 'ledger.balance_monitor.v1',
      data: {
        monitorId: 'm-1',
        field: 'available',
        operator: 'lt',
        value: 200,
        state: 'true',
        sequence: 3,
        balanceAfter: 150,
        availableAfter: 150,
      },
    };
    expect(journalLine({ MessageId: 'm', Body: JSON.stringify(event) })).toBe(
      '2026-12-01T10:00:00.000Z acc-1 #3 monitor       available lt 200 is now true (balance 150, available 150) monitorId=m-1',
    );
  });

  it('requires a queue it may read, and explains why ledger-events is not one', () => {
    expect(() => parseTailArgs([], {})).toThrow('--queue is required');
    expect(() => parseTailArgs(['--queue', 'nope'], {})).toThrow('--queue must be one of');
    expect(() => parseTailArgs(['--queue', 'ledger-events'], {})).toThrow(/redrive/);
    expect(() => parseTailArgs(['--queue'], {})).toThrow(UsageError);
  });
});

describe('demo arguments', () => {
  it('demo: defaults and options', () => {
    expect(parseDemoArgs([], {})).toEqual({
      help: false,
      url: 'http://127.0.0.1:3000',
      principal: 'demo',
      amount: 2_500,
      format: 'csv',
      timeoutMs: 30_000,
      lines: 5,
    });
    expect(
      parseDemoArgs(['--format', 'json', '--timeout', '5', '--amount', '900', '--lines', '2'], {}),
    ).toMatchObject({
      format: 'json',
      timeoutMs: 5_000,
      amount: 900,
      lines: 2,
    });
  });
});

describe('endpoints and secrets', () => {
  it('derives the endpoints from flags, then PORT / SQS_ENDPOINT / SQS_PORT', () => {
    expect(apiUrl(undefined, {}, 'x')).toBe('http://127.0.0.1:3000');
    expect(apiUrl(undefined, { PORT: ' 3100 ' }, 'x')).toBe('http://127.0.0.1:3100');
    expect(apiUrl('http://example.test:1/', { PORT: '3100' }, 'x')).toBe('http://example.test:1');
    expect(sqsEndpoint(undefined, { SQS_PORT: '4600' }, 'x')).toBe('http://127.0.0.1:4600');
    expect(sqsEndpoint(undefined, { SQS_ENDPOINT: 'http://q:1', SQS_PORT: '4600' }, 'x')).toBe(
      'http://q:1',
    );
    expect(() => apiUrl(undefined, { PORT: 'abc' }, 'x')).toThrow(CliError);
  });

  it('finds the secrets in CALLBACK_SECRETS (all of them, for rotation), else the demo default', () => {
    const env = {
      CALLBACK_SECRETS: JSON.stringify({ a: ['secret-a-0123456789', 'secret-a-next-0123456'] }),
    };
    expect(secretsFor('a', undefined, env)).toEqual([
      'secret-a-0123456789',
      'secret-a-next-0123456',
    ]);
    expect(secretsFor('a', 'given', env)).toEqual(['given']);
    expect(secretsFor('export-worker', undefined, {})).toEqual([DEMO_CALLBACK_SECRET]);
    expect(() => secretsFor('b', undefined, env)).toThrow(
      /no callback secret for application "b" in CALLBACK_SECRETS/,
    );
    expect(() => secretsFor('other', undefined, {})).toThrow(/local demo default/);
    expect(() => secretsFor('a', undefined, { CALLBACK_SECRETS: '{' })).toThrow(/CALLBACK_SECRETS/);
  });
});
