import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_SECRET_PREFIX } from '../../../functions/contract/webhooks';
import { messageOf } from '../../../functions/domain/shared/log';
import { intOption, parseCommandArgs, stringOption } from '../../args';
import type { CliContext, Command } from '../../command';
import { UsageError } from '../../errors';

const NAME = 'webhooks';
/** Where `webhooks listen` answers when no --port is given. */
export const DEFAULT_WEBHOOK_LISTEN_PORT = 8787;

/** What the receiver answers a delivery, and the line it prints. */
export interface Verdict {
  readonly status: 204 | 401;
  readonly line: string;
}

/**
 * Checks one delivery's Standard Webhooks signature with `secret` (unchecked without one) and
 * describes it: type, webhook-id, account (the event's subject) and sequence.
 */
export function judgeDelivery(
  secret: string | undefined,
  body: string,
  headers: IncomingHttpHeaders,
): Verdict {
  const id = String(headers['webhook-id'] ?? '-');
  let event: Record<string, unknown>;
  try {
    const flat = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
    event = (secret ? new Webhook(secret).verify(body, flat) : JSON.parse(body)) as Record<
      string,
      unknown
    >;
  } catch (error) {
    return { status: 401, line: `REJECTED webhook-id=${id}: ${messageOf(error)}` };
  }
  const data = (event.data ?? {}) as Record<string, unknown>;
  const sequence = event.sequence ?? data.sequence ?? '-';
  const mark = secret ? 'verified' : 'unverified (no --secret)';
  return {
    status: 204,
    line: `${String(event.type)} webhook-id=${id} account=${String(event.subject)} sequence=${String(sequence)} ${mark}`,
  };
}

/** A loopback receiver (127.0.0.1 only) answering each POST with its verdict. */
export async function startListener(
  port: number,
  secret: string | undefined,
  out: (line: string) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const verdict = judgeDelivery(secret, Buffer.concat(chunks).toString('utf8'), req.headers);
      out(verdict.line);
      res.writeHead(verdict.status).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${bound}/` };
}

export const webhooksCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- webhooks listen [--port N] [--secret whsec_…]

Starts an HTTP receiver on 127.0.0.1 (port ${DEFAULT_WEBHOOK_LISTEN_PORT} unless --port; 0 picks one)
for webhook endpoints of the local stack (docs/webhooks.md). Each delivery's Standard Webhooks
signature is verified with --secret (the endpoint's whsec_ secret): 204 and a line with its
type, webhook-id, account and sequence, or 401 on a bad signature. Ctrl-C stops it.`,
  async run(argv, ctx: CliContext) {
    const [sub, ...rest] = argv;
    const { values, help } = parseCommandArgs(NAME, rest, {
      port: { type: 'string' },
      secret: { type: 'string' },
    });
    if (help || sub === '--help' || sub === '-h') {
      ctx.out(webhooksCommand.help);
      return 0;
    }
    if (sub !== 'listen') throw new UsageError('the only subcommand is "listen"', NAME);
    const secret = stringOption(values, 'secret');
    if (secret !== undefined && !secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
      throw new UsageError(`--secret must start with ${WEBHOOK_SECRET_PREFIX}`, NAME);
    }
    const port =
      intOption(values, 'port', NAME, { min: 0, max: 65_535 }) ?? DEFAULT_WEBHOOK_LISTEN_PORT;
    const { server, url } = await startListener(port, secret, ctx.out);
    ctx.out(`listening on ${url} (Ctrl-C stops)`);
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return 0;
  },
};
