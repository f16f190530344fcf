/** Cold-start probe: our zod contract schemas (what every request is validated with). */
import * as schemas from '../../functions/schemas/shared';

export const handler = async () => Object.keys(schemas).length;
