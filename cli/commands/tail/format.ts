import type { Message } from '@aws-sdk/client-sqs';
import { pretty } from '../callback';

/** How `tail` prints a message: readable, a journal line, or JSON (`--json`). */

/** The readable form: a header line, the message attributes, the body (pretty JSON if it is). */
export function readable(message: Message): string {
  const system = message.Attributes ?? {};
  const sent = system.SentTimestamp
    ? new Date(Number(system.SentTimestamp)).toISOString()
    : 'unknown';
  const lines = [
    `--- message ${message.MessageId}  sent ${sent}  received ${system.ApproximateReceiveCount ?? '?'}x`,
  ];
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    lines.push(`  ${name}: ${value.StringValue ?? `<${value.DataType ?? 'binary'}>`}`);
  }
  lines.push(
    pretty(message.Body ?? '')
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n'),
  );
  return lines.join('\n');
}

const signed = (n: unknown) => (typeof n === 'number' && n > 0 ? `+${n}` : String(n));

/**
 * One journal event as a line: `<time> <account> #<sequence> <kind> balance +Δ = after,
 * available +Δ = after [ids]`; anything else on the tap queue in the readable form.
 */
export function journalLine(message: Message): string {
  let event: { time?: unknown; subject?: unknown; data?: Record<string, unknown> };
  try {
    event = JSON.parse(message.Body ?? '');
  } catch {
    return readable(message);
  }
  const data = event.data;
  if (!data || typeof data.sequence !== 'number') return readable(message);
  if (typeof data.monitorId === 'string') {
    // A balance monitor's flip (docs/contract.md §28), on the same topic.
    return [
      String(event.time),
      String(event.subject),
      `#${data.sequence}`,
      'monitor'.padEnd(13),
      `${String(data.field)} ${String(data.operator)} ${String(data.value)} is now ${String(data.state)}`,
      `(balance ${String(data.balanceAfter)}, available ${String(data.availableAfter)})`,
      `monitorId=${data.monitorId}`,
    ].join(' ');
  }
  const ids = ['entryId', 'holdId', 'transferId']
    .filter((k) => typeof data[k] === 'string')
    .map((k) => `${k}=${String(data[k])}`);
  return [
    String(event.time),
    String(event.subject),
    `#${data.sequence}`,
    String(data.kind).padEnd(13),
    `balance ${signed(data.balanceDelta)} = ${String(data.balanceAfter)},`,
    `available ${signed(data.availableDelta)} = ${String(data.availableAfter)}`,
    ...(data.opening === true ? ['(opening)'] : []),
    ...ids,
  ].join(' ');
}

export function toJson(queue: string, message: Message): Record<string, unknown> {
  let body: unknown = message.Body;
  try {
    body = JSON.parse(message.Body ?? '');
  } catch {
    // not JSON: kept as the string it is
  }
  return {
    queue,
    messageId: message.MessageId,
    sentTimestamp: message.Attributes?.SentTimestamp,
    receiveCount: message.Attributes?.ApproximateReceiveCount,
    attributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue]),
    ),
    body,
  };
}
