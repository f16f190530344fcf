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

type Unit = 'Count' | 'Seconds';
type Dimension = { readonly name: string; readonly value: string };

/** CloudWatch takes at most 100 metrics per EMF document and 100 values per metric. */
const EMF_MAX = 100;

/**
 * Where the lines go: straight to the process streams, like Powertools, so the Lambda runtime's
 * console patch never prefixes them (an EMF line must be JSON from its first character).
 */
export interface TelemetryStreams {
  out(line: string): void;
  err(line: string): void;
}

const processStreams: TelemetryStreams = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** The CloudWatch Embedded Metric Format document of one flush. */
export function emfDocument(
  serviceName: string,
  metrics: ReadonlyMap<string, { unit: Unit; values: number[] }>,
  dimension: Dimension | undefined,
  now: number,
): string {
  const dimensions = dimension ? ['service', dimension.name] : ['service'];
  const values = Object.fromEntries(
    [...metrics].map(([name, m]) => [name, m.values.length === 1 ? m.values[0] : m.values]),
  );
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [dimensions],
          Metrics: [...metrics].map(([name, m]) => ({ Name: name, Unit: m.unit })),
        },
      ],
    },
    service: serviceName,
    ...(dimension ? { [dimension.name]: dimension.value } : {}),
    ...values,
  });
}

/**
 * Structured JSON logs (the fields Powertools Logger writes: level, message, timestamp, service,
 * the Lambda context, the X-Ray trace id) and CloudWatch EMF metrics (no API calls) behind the
 * service's small Log and MetricsPort interfaces, in a few hundred bytes instead of Powertools'
 * ~35 KB of bundle and its module init (docs/benchmarks.md). A metric with a dimension is
 * written at once in a document of its own; the others are stored and flushed after each
 * invocation, values of one name kept as a list.
 */
export function lambdaTelemetry(
  serviceName: string,
  streams: TelemetryStreams = processStreams,
): LambdaTelemetry {
  let context: LogFields = {};
  let coldStart = true;
  const stored = new Map<string, { unit: Unit; values: number[] }>();
  const write = (level: 'INFO' | 'WARN' | 'ERROR') => (message: string, fields?: LogFields) => {
    const traceId = process.env._X_AMZN_TRACE_ID?.split(';')[0]?.replace('Root=', '');
    const line = JSON.stringify({
      level,
      message,
      timestamp: new Date().toISOString(),
      service: serviceName,
      ...context,
      ...(traceId ? { xray_trace_id: traceId } : {}),
      ...fields,
    });
    if (level === 'INFO') streams.out(line);
    else streams.err(line);
  };
  const flush = () => {
    if (stored.size === 0) return;
    streams.out(emfDocument(serviceName, stored, undefined, Date.now()));
    stored.clear();
  };
  const add = (name: string, unit: Unit, value: number, dimension?: Dimension) => {
    if (dimension) {
      const single = new Map([[name, { unit, values: [value] }]]);
      streams.out(emfDocument(serviceName, single, dimension, Date.now()));
      return;
    }
    const known = stored.get(name);
    if (known && known.values.length < EMF_MAX) known.values.push(value);
    else {
      if (known || stored.size >= EMF_MAX) flush();
      stored.set(name, { unit, values: [value] });
    }
  };
  return {
    log: { info: write('INFO'), warn: write('WARN'), error: write('ERROR') },
    metrics: {
      count: (name, value = 1, dimension) => add(name, 'Count', value, dimension),
      seconds: (name, value, dimension) => add(name, 'Seconds', value, dimension),
    },
    instrument(handler) {
      return async (event, lambdaContext) => {
        if (lambdaContext) {
          context = {
            cold_start: coldStart,
            function_arn: lambdaContext.invokedFunctionArn,
            function_memory_size: Number(lambdaContext.memoryLimitInMB),
            function_name: lambdaContext.functionName,
            function_request_id: lambdaContext.awsRequestId,
          };
          coldStart = false;
        }
        try {
          return await handler(event, lambdaContext);
        } finally {
          flush();
        }
      };
    },
  };
}
