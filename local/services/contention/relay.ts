import { type Agent, type IncomingMessage, request, type ServerResponse } from 'node:http';

/**
 * Forwards a request to DynamoDB Local as received and relays its answer unchanged;
 * `answered` gets the status (502 when the upstream failed) once, before the answer is sent on.
 */
export function relay(
  upstream: { readonly agent: Agent; readonly target: URL },
  raw: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  answered: (status: number) => void = () => {},
): void {
  let done = false;
  const finish = (status: number) => {
    if (done) return;
    done = true;
    answered(status);
  };
  const forwarded = request(
    {
      host: upstream.target.hostname,
      port: upstream.target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent: upstream.agent,
    },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        finish(answer.statusCode ?? 502);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(Buffer.concat(chunks));
      });
      answer.on('error', () => {
        finish(502);
        res.destroy();
      });
    },
  );
  forwarded.on('error', () => {
    finish(502);
    res.destroy();
  });
  forwarded.end(raw);
}
