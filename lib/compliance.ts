import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/**
 * Registers cdk-nag's AWS Solutions rules on `app`. cdk-nag 3 is a CDK policy validation plugin
 * (not an Aspect): it runs after the templates are synthesized, and any finding that is not
 * acknowledged (`Validations.of(construct).acknowledge(...)`, next to the construct that owns the
 * resource) fails the synth with a report. The acknowledgements and their reasons are listed in
 * docs/deployment.md (cdk-nag).
 */
export function addComplianceChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
}
