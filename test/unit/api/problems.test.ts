import { describe, expect, it } from 'vitest';
import { httpResponses, toProblem } from '../../../functions/api/problems';
import {
  IdempotencyKeyInUseError,
  InsufficientFundsError,
  UnavailableError,
  ValidationError,
} from '../../../functions/domain/shared/errors';

describe('problem mapping (docs/contract.md §3)', () => {
  it('maps a domain error to its status, title and code, with field errors as data', () => {
    const problem = toProblem(new ValidationError('bad', [{ path: 'body.x', message: 'no' }]));
    expect(problem.status).toBe(400);
    expect(JSON.parse(problem.body)).toEqual({
      type: '/v1/problems/validation_failed',
      title: 'Validation failed',
      status: 400,
      detail: 'bad',
      code: 'validation_failed',
      errors: [{ path: 'body.x', message: 'no' }],
    });
  });

  it.each([
    [new IdempotencyKeyInUseError(), 409],
    [new UnavailableError(), 503],
  ])('sends Retry-After with %s', (error, status) => {
    expect(toProblem(error)).toMatchObject({ status, retryAfterSeconds: 1 });
  });

  it('hides an unknown error behind 500 internal', () => {
    const problem = toProblem(new Error('Table ledger: AccessDenied'));
    expect(problem).toMatchObject({ status: 500, code: 'internal' });
    expect(problem.body).not.toContain('AccessDenied');
  });

  it('renders what an idempotency record stores: the status and the exact body', () => {
    expect(httpResponses.success({ b: 1, a: 2 }, 'created')).toEqual({
      statusCode: 201,
      body: '{"b":1,"a":2}',
    });
    expect(httpResponses.success({}, 'accepted').statusCode).toBe(202);
    const rejection = httpResponses.rejection(new InsufficientFundsError());
    expect(rejection).toEqual({
      statusCode: 409,
      body: toProblem(new InsufficientFundsError()).body,
    });
  });
});
