/** A failure to report in one readable line (exit code 1); no stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Bad arguments: the message, then a pointer to the command's --help (exit code 2). */
export class UsageError extends CliError {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message, 2);
  }
}
