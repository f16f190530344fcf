import type { HealthService } from '../../domain/health/service';
import type { RouteHandlers } from '../router';
import type { HEALTH_ROUTES } from './spec';

export function healthHandlers(health: HealthService): RouteHandlers<typeof HEALTH_ROUTES> {
  return { getHealth: () => health.check() };
}
