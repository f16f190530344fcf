import { describe, expect, it } from 'vitest';
import { DynamoPortTakenError } from '../../../../../local/services/dynamodb/dynamodb-local';
import { explainJavaFailure } from '../../../../../local/services/dynamodb/service';

describe('a failed DynamoDB Local start, as npm start says it', () => {
  it('names the variable to change when its port was taken before the JVM bound it', () => {
    const taken = new DynamoPortTakenError(8000, 'Failed to bind to /127.0.0.1:8000');
    const said = explainJavaFailure(taken);
    // The wording of the other services' taken ports (local/services/http, local/services/sqs).
    expect(said.message).toBe(
      'port 8000 on 127.0.0.1 is already in use; set DYNAMODB_PORT to another port',
    );
    expect(said.cause).toBe(taken);
  });

  it('asks for Java when there is none, and passes anything else on as it is', () => {
    const missing = new Error('spawn java ENOENT', {
      cause: Object.assign(new Error('ENOENT'), { code: 'ENOENT' }),
    });
    expect(explainJavaFailure(missing).message).toMatch(/needs Java 17\+/);
    const other = new Error('DynamoDB Local exited early (code 1)');
    expect(explainJavaFailure(other)).toBe(other);
  });
});
