import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../cli/registry';
import { runCli } from '../../../cli/run';
import { recordingContext } from '../../support/cli/context';

/** Nothing listens: every HTTP call is refused. */
const refused = (async () => {
  throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
}) as typeof fetch;
const context = (env: Record<string, string> = {}) => recordingContext({ env, fetch: refused });

describe('npm run cli', () => {
  it('lists the commands and exits 2 without one', async () => {
    const { ctx, err } = context();
    expect(await runCli([], ctx)).toBe(2);
    const lines = err.join('\n').split('\n');
    for (const { name, summary } of COMMANDS) {
      const listed = lines.some((l) => l.startsWith(`  ${name} `) && l.endsWith(`  ${summary}`));
      expect(listed, name).toBe(true);
    }
  });

  it('prints the overview or a command help for --help, and exits 0', async () => {
    const a = context();
    expect(await runCli(['--help'], a.ctx)).toBe(0);
    expect(a.out.join('\n')).toMatch(/^Usage: npm run cli -- <command>/);

    const b = context();
    expect(await runCli(['help', 'demo'], b.ctx)).toBe(0);
    expect(b.out.join('\n')).toMatch(/^Usage: npm run cli -- demo/);

    for (const { name } of COMMANDS) {
      const c = context();
      expect(await runCli([name, '--help'], c.ctx)).toBe(0);
      expect(c.out.join('\n')).toContain(`Usage: npm run cli -- ${name}`);
    }
  });

  it('rejects an unknown command with exit code 2', async () => {
    const { ctx, err } = context();
    expect(await runCli(['frobnicate'], ctx)).toBe(2);
    expect(err[0]).toBe('error: unknown command "frobnicate"\n');
  });

  it('turns a usage error into one line and a pointer to --help, exit code 2', async () => {
    const { ctx, err } = context();
    expect(await runCli(['callback', '--sequence', '1'], ctx)).toBe(2);
    expect(err).toEqual([
      'error: --execution is required',
      'Run `npm run cli -- callback --help` for the options.',
    ]);
  });

  it('explains an unreachable API without a stack trace, exit code 1', async () => {
    const { ctx, err } = context({ PORT: '1' });
    const code = await runCli(
      ['callback', '--execution', '6f1c9a52-3c1e-4f7a-9d3e-0b8f1f0e2a11', '--sequence', '1'],
      ctx,
    );
    expect(code).toBe(1);
    expect(err).toEqual([
      expect.stringMatching(
        /^error: cannot reach the HTTP API at http:\/\/127\.0\.0\.1:1 \(connect ECONNREFUSED .*\)\. Is `npm start` running\?/,
      ),
    ]);
  });
});
