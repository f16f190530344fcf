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

/** An error as one line for a human: `Name: message` (pollers' and the CLI's output). */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
