/** Structured JSON log lines; injectable so tests can capture them. */
export type LogFields = Record<string, unknown>;

export interface Log {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

function line(level: string, message: string, fields: LogFields = {}): string {
  return JSON.stringify({ level, message, timestamp: new Date().toISOString(), ...fields });
}

export const consoleLog: Log = {
  info: (message, fields) => console.log(line('INFO', message, fields)),
  warn: (message, fields) => console.warn(line('WARN', message, fields)),
  error: (message, fields) => console.error(line('ERROR', message, fields)),
};

/** Drops every line: for tests and benchmarks that read outcomes, not logs (beside `noMetrics`). */
export const silentLog: Log = { info: () => {}, warn: () => {}, error: () => {} };

/** What an error may show in a log: its name and message, never a secret-bearing payload. */
export function errorFields(error: unknown): LogFields {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error
    ? { errorName: cause.name, errorMessage: cause.message }
    : { errorName: typeof cause, errorMessage: String(cause) };
}

/** An error's own message (or the thrown value as text): for messages that add their own context. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An error's stack (or its message, or the thrown value as text): for unexpected errors. */
export function stackOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * An error as one line for a human (the pollers', `npm start`'s and the CLI's output):
 * `Name[ code]: message[: cause's message]`. The one such function: local/ and cli/ import it.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const head = `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
  return error.cause instanceof Error ? `${head}: ${error.cause.message}` : head;
}
