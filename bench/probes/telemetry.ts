/** Cold-start probe: the functions' logs and EMF metrics (functions/aws/telemetry.ts). */
import { lambdaTelemetry } from '../../functions/aws/telemetry';

const telemetry = lambdaTelemetry('probe');
export const handler = telemetry.instrument(async () => ({}));
