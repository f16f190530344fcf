import { type CommandServiceOptions, IdempotentCommands } from '../idempotency/idempotent-command';
import type { ResponseRecorder } from '../idempotency/port';
import { MovementCommands } from './commands';
import type { MovementPort } from './port';

/**
 * A feature's service whose commands move money (docs/contract.md §23): its own port records
 * answers, and every command runs claim → one movement write → settle through these two.
 */
export abstract class MovingService<
  Port extends ResponseRecorder,
  Options extends CommandServiceOptions,
> {
  protected readonly commands: IdempotentCommands;
  protected readonly movements: MovementCommands;

  constructor(
    protected readonly port: Port,
    movements: MovementPort,
    protected readonly options: Options,
  ) {
    this.commands = new IdempotentCommands(port, options);
    this.movements = new MovementCommands(movements);
  }
}
