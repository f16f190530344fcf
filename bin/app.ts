import { App } from 'aws-cdk-lib';
import {
  type LedgerConfig,
  LedgerConfigError,
  readLedgerContext,
  resolveLedgerConfig,
} from '../lib/config';
import { createLedgerStacks } from '../lib/ledger-app';

const app = new App();

let config: LedgerConfig;
try {
  config = resolveLedgerConfig(readLedgerContext((key) => app.node.tryGetContext(key)));
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

app.synth();
