import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import type { Log, LogFields } from '../domain/shared/log';
import { METRICS_NAMESPACE, type MetricsPort } from '../domain/shared/metrics';

export interface LambdaTelemetry {
  readonly log: Log;
  readonly metrics: MetricsPort;
  /**
   * Adds the Lambda context to every log line, hands it on (a handler reads its time left from
   * it) and flushes metrics (EMF) after each invocation.
   */
  instrument<E, R>(
    handler: (event: E, context?: Context) => Promise<R>,
  ): (event: E, context?: Context) => Promise<R>;
}

/**
 * Powertools Logger (structured JSON with the Lambda request id) and Metrics (CloudWatch EMF,
 * no API calls) behind the service's small Log and MetricsPort interfaces.
 */
export function lambdaTelemetry(serviceName: string): LambdaTelemetry {
  const logger = new Logger({ serviceName });
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName });
  const write =
    (level: 'info' | 'warn' | 'error') =>
    (message: string, fields: LogFields = {}) =>
      logger[level](message, fields);
  const add = (
    name: string,
    unit: (typeof MetricUnit)[keyof typeof MetricUnit],
    value: number,
    dimension?: { name: string; value: string },
  ) => {
    if (dimension) {
      const single = metrics.singleMetric();
      single.addDimension(dimension.name, dimension.value);
      single.addMetric(name, unit, value);
    } else {
      metrics.addMetric(name, unit, value);
    }
  };
  return {
    log: { info: write('info'), warn: write('warn'), error: write('error') },
    metrics: {
      count: (name, value = 1, dimension) => add(name, MetricUnit.Count, value, dimension),
      seconds: (name, value, dimension) => add(name, MetricUnit.Seconds, value, dimension),
    },
    instrument(handler) {
      return async (event, context) => {
        if (context) logger.addContext(context);
        try {
          return await handler(event, context);
        } finally {
          metrics.publishStoredMetrics();
        }
      };
    },
  };
}
