import { App } from 'aws-cdk-lib';
import { addComplianceChecks } from '../lib/compliance';
import { type LedgerConfig, LedgerConfigError } from '../lib/config';
import { createLedgerStacks } from '../lib/ledger-app';
import { ledgerConfigFromContext } from '../lib/stage-context';

const app = new App();

let config: LedgerConfig;
try {
  // Top-level keys (-c key=value) over the `stages.<stage>` block of cdk.json over defaults.
  config = ledgerConfigFromContext((key) => app.node.tryGetContext(key));
} catch (error) {
  if (!(error instanceof LedgerConfigError)) throw error;
  // A bad -c value: print the reason, not a stack trace, and fail the synth.
  console.error(error.message);
  process.exit(1);
}

createLedgerStacks(app, config, {
  // Unset offline: the stacks are then environment-agnostic.
  env: {
    account: process.env.CDK_DEFAULT_ACCOUNT,
    region: process.env.CDK_DEFAULT_REGION,
  },
});

// cdk-nag (AWS Solutions): an unacknowledged finding fails the synth.
addComplianceChecks(app);

app.synth();
