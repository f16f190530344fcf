import { describe, expect, it } from 'vitest';
import { functionSettings } from '../../../functions/handlers/function-envs';
import { type FunctionName, SERVICE_SETTINGS } from '../../../functions/handlers/shared/config';
import { WEBHOOK_SETTINGS } from '../../../functions/handlers/webhooks/config';
import { readLocalSettings } from '../../../local/settings';
import { propertiesOf, synthLedger } from '../synth';

/** Every functions' own variables: the local stack passes its emulators' in their configs. */
const FUNCTIONS: readonly FunctionName[] = [
  'http',
  'events',
  'dispatcher',
  'exportWorker',
  'sweeper',
  'journalProjector',
  'reconciler',
  'creditIntake',
];

/** The variables `npm start` reads from its environment, as it asks for them. */
function readLocally(): Set<string> {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get: (_target, name) => {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    },
  );
  readLocalSettings(env);
  return read;
}

describe('one settings list for the deployed functions and the local stack (§31)', () => {
  it('the local stack reads every variable a deployed function is given', () => {
    const functions = Object.values(propertiesOf(synthLedger().stateless, 'AWS::Lambda::Function'));
    const deployed = new Set(
      functions.flatMap((fn) =>
        Object.keys((fn.Environment as { Variables?: Record<string, unknown> })?.Variables ?? {}),
      ),
    );
    const local = readLocally();
    const wired = new Set([
      ...FUNCTIONS.flatMap((fn) => functionSettings(fn)),
      ...WEBHOOK_SETTINGS,
    ]);
    for (const name of ['BACKDATE_LIMIT_DAYS', 'INTAKE_SHARDS']) expect(deployed).toContain(name);
    // A shared setting is read from the environment; a function's own (a queue URL, a topic
    // ARN) is the local emulators' resource, passed in its configuration by local/functions.ts.
    const missing = [...deployed].filter((name) => !local.has(name) && !wired.has(name));
    expect(missing).toEqual([]);
    for (const name of SERVICE_SETTINGS) expect(local).toContain(name);
  });

  it('a value set locally reaches the functions configuration', () => {
    const { config } = readLocalSettings({
      BACKDATE_LIMIT_DAYS: '30',
      INTAKE_SHARDS: '3',
      DAY_SUMS_SETTLE_SECONDS: '0',
    });
    expect(config).toMatchObject({
      backdateLimitDays: 30,
      intakeShards: 3,
      daySumsSettleSeconds: 0,
    });
    expect(readLocalSettings({}).config.daySumsSettleSeconds).toBe(300);
    expect(() => readLocalSettings({ DAY_SUMS_SETTLE_SECONDS: '86401' })).toThrow(
      /DAY_SUMS_SETTLE_SECONDS/,
    );
  });
});
