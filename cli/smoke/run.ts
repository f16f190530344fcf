import { randomUUID } from 'node:crypto';
import { createLedgerClient, type LedgerAuth } from '../../client/index';
import { type CallbackScheme, schemeLabel, signatureHeaders } from '../callbacks';
import type { CallbackProbe } from './callback-checks';
import type { CheckResult } from './check';
import { runSmoke } from './checks';
import { parseSmokeArgs, SMOKE_USAGE, type SmokeArgs, SmokeUsageError } from './options';

export interface SmokeIo {
  readonly env: Record<string, string | undefined>;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly fetch?: typeof fetch;
}

/** Runs the smoke checks and prints the table. Exit code: 0 all passed, 1 a FAIL, 2 usage. */
export async function runSmokeCommand(argv: readonly string[], io: SmokeIo): Promise<number> {
  let args: SmokeArgs | 'help';
  try {
    args = parseSmokeArgs(argv, io.env);
  } catch (error) {
    if (!(error instanceof SmokeUsageError)) throw error;
    io.err(`smoke: ${error.message}\n\n${SMOKE_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    io.out(SMOKE_USAGE);
    return 0;
  }
  const client = (auth: LedgerAuth) =>
    createLedgerClient({ baseUrl: args.url, auth, ...(io.fetch ? { fetch: io.fetch } : {}) });
  io.out(`smoke test of ${args.url} (auth ${args.auth})`);
  const results = await runSmoke({
    client: client(await authFor(args)),
    anonymous: client({ kind: 'none' }),
    ...(args.auth === 'local'
      ? { stranger: client({ kind: 'local', principal: `smoke-stranger-${randomUUID()}` }) }
      : {}),
    concurrency: args.concurrency,
    ...(args.callbackSecret
      ? { callback: callbackProbe(args.callbackApp, args.callbackSecret, args.callbackScheme) }
      : {}),
  });
  for (const line of formatTable(results)) io.out(line);
  const failed = results.filter((r) => r.verdict === 'FAIL').length;
  io.out(failed === 0 ? 'smoke: PASS' : `smoke: FAIL (${failed} of ${results.length} checks)`);
  return failed === 0 ? 0 : 1;
}

async function authFor(args: SmokeArgs): Promise<LedgerAuth> {
  switch (args.auth) {
    case 'local':
      return { kind: 'local', principal: args.principal ?? `smoke-${randomUUID()}` };
    case 'jwt': {
      const token = args.token ?? '';
      return { kind: 'jwt', token: () => token };
    }
    case 'iam': {
      // Loaded only for IAM: the default chain (env, profile, SSO, instance role…).
      const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
      return { kind: 'iam', region: args.region ?? '', credentials: defaultProvider() };
    }
  }
}

/** Signs like the CLI does (cli/callbacks.ts), with the header set the operator chose. */
function callbackProbe(
  applicationId: string,
  secret: string,
  scheme: CallbackScheme,
): CallbackProbe {
  const signer = { scheme, secrets: [secret], signingKeys: [] };
  return {
    applicationId,
    scheme: schemeLabel(signer),
    headersFor: (body, id) => signatureHeaders(signer, { id, body }),
  };
}

/** `verdict  check  detail` columns, padded to the widest entry. */
export function formatTable(results: readonly CheckResult[]): string[] {
  const width = Math.max(5, ...results.map((r) => r.name.length));
  return [
    `RESULT  ${'CHECK'.padEnd(width)}  DETAIL`,
    ...results.map((r) => `${r.verdict.padEnd(6)}  ${r.name.padEnd(width)}  ${r.detail}`),
  ];
}
