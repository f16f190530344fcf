/**
 * The soak's HTTP caller: every keyed request is retried under its key and body until it answers
 * for good (docs/contract.md §4, §30): a lost answer (connection cut), a 5xx, a 429 or a
 * `409 idempotency_key_in_use` or `409 credit_pending` (a reversal of a deferred credit not
 * posted yet, §24) means "try again". Each send and each final answer takes a tick
 * of one logical clock, the checker's only notion of before and after.
 */
export interface Answer {
  readonly status: number;
  readonly code?: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers of many routes, read field by field by the checker.
  readonly body: any;
  /** Tick of the first send. */
  readonly sent: number;
  /** Tick of the final answer. */
  readonly answered: number;
  /** Sends it took (1 = answered at once). */
  readonly attempts: number;
  /** Wall-clock time of the final answer (ms). */
  readonly at: number;
}

export interface Client {
  send(method: 'POST', path: string, key: string, body: unknown): Promise<Answer>;
  // biome-ignore lint/suspicious/noExplicitAny: as Answer.body.
  get(path: string): Promise<any>;
  /** Ticks so far. */
  now(): number;
  readonly stats: { requests: number; retries: number };
}

export const PRINCIPAL = 'soak';
const GIVE_UP_MS = 180_000;
const TIMEOUT_MS = 35_000;

export function soakClient(base: () => string): Client {
  let tick = 0;
  const stats = { requests: 0, retries: 0 };
  async function once(method: string, path: string, key: string | undefined, body: unknown) {
    stats.requests++;
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: {
        'X-Principal-Id': PRINCIPAL,
        ...(key === undefined ? {} : { 'Idempotency-Key': key }),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, body: json as Answer['body'] };
  }
  async function untilFinal(method: string, path: string, key: string | undefined, body: unknown) {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let answer: { status: number; body: Answer['body'] } | undefined;
      try {
        answer = await once(method, path, key, body);
      } catch {
        answer = undefined; // lost: the connection was cut or the stack is down
      }
      if (answer && !retryable(answer.status, answer.body)) return { ...answer, attempts: attempt };
      if (Date.now() - started > GIVE_UP_MS) {
        throw new Error(
          `${method} ${path} (key ${key}) never answered for good: ${JSON.stringify(answer)}`,
        );
      }
      stats.retries++;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(1_000, 25 * 2 ** Math.min(attempt, 6))),
      );
    }
  }
  return {
    stats,
    now: () => tick,
    send: async (method, path, key, body) => {
      const sent = ++tick;
      const answer = await untilFinal(method, path, key, body);
      const code = typeof answer.body?.code === 'string' ? answer.body.code : undefined;
      return {
        ...answer,
        ...(code === undefined ? {} : { code }),
        sent,
        answered: ++tick,
        at: Date.now(),
      };
    },
    get: async (path) => {
      const answer = await untilFinal('GET', path, undefined, undefined);
      if (answer.status !== 200)
        throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
  };
}

function retryable(status: number, body: Answer['body']): boolean {
  return (
    status >= 500 ||
    status === 429 ||
    (status === 409 && (body?.code === 'idempotency_key_in_use' || body?.code === 'credit_pending'))
  );
}
