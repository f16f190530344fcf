import { type CurrencySums, unbalancedSentence } from '../accounts/ledger-currencies';
import { DomainError, type FieldError } from '../shared/errors';

/**
 * Debits and credits of a ledger transaction differ in some currency (§16, §35); a shape error,
 * never recorded. A single-currency transaction answers as it always has; several currencies
 * name the first unbalanced one in leg order in `detail` and list each in `errors` (§36).
 */
export class LegsUnbalancedError extends DomainError {
  readonly errors: readonly FieldError[];

  constructor(unbalanced: readonly CurrencySums[], multiCurrency: boolean) {
    const [first] = unbalanced;
    if (!first) throw new Error('legs_unbalanced without an unbalanced currency');
    super(
      'legs_unbalanced',
      multiCurrency
        ? unbalancedSentence(first)
        : `The debits (${first.debits}) and credits (${first.credits}) differ.`,
    );
    this.errors = multiCurrency
      ? unbalanced.map((sum) => ({ path: 'legs', message: unbalancedSentence(sum) }))
      : [];
  }
}
