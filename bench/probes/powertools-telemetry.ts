/** Cold-start probe: Powertools Logger and Metrics as functions/aws/powertools.ts sets them up. */
import { lambdaTelemetry } from '../../functions/aws/powertools';

const telemetry = lambdaTelemetry('probe');
export const handler = telemetry.instrument(async () => ({}));
