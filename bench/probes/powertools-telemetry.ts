/** Cold-start probe: Powertools Logger and Metrics as functions/observability/powertools.ts sets them up. */
import { lambdaTelemetry } from '../../functions/observability/powertools';

const telemetry = lambdaTelemetry('probe');
export const handler = telemetry.instrument(async () => ({}));
