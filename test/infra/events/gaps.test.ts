import { beforeAll, describe, expect, it } from 'vitest';
import { eventGapsOverdueDescription } from '../../../lib/alarm-catalog';
import {
  expectTlsOnlyTopic,
  logicalIdOf,
  propertiesOfId,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  synthLedger,
} from '../synth';

/** The gap topic and its alarm (docs/contract.md §18, docs/alarms.md "event-gaps-overdue"). */
describe('gap re-fetch infrastructure', () => {
  let ledger: SynthesizedLedger;
  let topicId: string;
  let keyId: string;

  beforeAll(() => {
    ledger = synthLedger();
    topicId = logicalIdOf(ledger.stacks.stateful.gapTopic.topic);
    keyId = logicalIdOf(ledger.stacks.stateful.gapTopic.key);
  }, SYNTH_HOOK_TIMEOUT_MS);

  it('is a standard topic <stage>-ledger-gaps, encrypted with a rotated customer key, TLS only', () => {
    const topic = propertiesOfId(ledger.stateful, 'AWS::SNS::Topic', topicId);
    expect(topic.TopicName).toBe('dev-ledger-gaps');
    expect(topic.FifoTopic).toBeUndefined();
    expect(topic.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(propertiesOfId(ledger.stateful, 'AWS::KMS::Key', keyId).EnableKeyRotation).toBe(true);
    expectTlsOnlyTopic(ledger.stateful, topicId);
  });

  it('outputs GapTopicArn', () => {
    ledger.stateful.hasOutput('GapTopicArn', { Value: { Ref: topicId } });
  });

  it('gives the events consumer the same GAP_REFETCH_AFTER_SECONDS as the sweeper', () => {
    for (const fn of [
      ledger.stacks.stateless.eventsConsumer.function,
      ledger.stacks.stateless.sweeper.function,
    ]) {
      const properties = propertiesOfId(ledger.stateless, 'AWS::Lambda::Function', logicalIdOf(fn));
      expect(properties.Environment).toMatchObject({
        Variables: { GAP_REFETCH_AFTER_SECONDS: '300' },
      });
    }
  });

  it("takes GAP_REFETCH_AFTER_SECONDS and the overdue alarm's time from gapRefetchAfterSeconds", () => {
    const tuned = synthLedger({ gapRefetchAfterSeconds: '600' });
    for (const fn of [
      tuned.stacks.stateless.eventsConsumer.function,
      tuned.stacks.stateless.sweeper.function,
    ]) {
      const properties = propertiesOfId(tuned.stateless, 'AWS::Lambda::Function', logicalIdOf(fn));
      expect(properties.Environment).toMatchObject({
        Variables: { GAP_REFETCH_AFTER_SECONDS: '600' },
      });
    }
    const [alarm] = Object.values(tuned.stateless.findResources('AWS::CloudWatch::Alarm')).filter(
      (a) => String(a.Properties.AlarmName).endsWith('event-gaps-overdue'),
    );
    // 12 × 600 s: the description names the time a gap may stay open before it is overdue.
    expect(String(alarm?.Properties.AlarmDescription)).toContain(
      eventGapsOverdueDescription(12 * 600),
    );
  });

  it('alarms on OverdueGaps (event-gaps-overdue) as soon as one gap is overdue', () => {
    const alarms = Object.values(ledger.stateless.findResources('AWS::CloudWatch::Alarm')).filter(
      (a) => String(a.Properties.AlarmName).endsWith('event-gaps-overdue'),
    );
    expect(alarms).toHaveLength(1);
    const [alarm] = alarms;
    expect(alarm?.Properties).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(alarm?.Properties.AlarmDescription).toContain('3600 s');
    const metrics = JSON.stringify(alarm?.Properties.Metrics);
    for (const part of ['OverdueGaps', 'IdempotentLedger', 'ledger-sweeper', 'Maximum']) {
      expect(metrics).toContain(part);
    }
  });
});
