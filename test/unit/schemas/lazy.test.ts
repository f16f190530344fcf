import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { lazySchema, once } from '../../../functions/schemas/lazy';
import { Amount, Currency } from '../../../functions/schemas/shared';
import { Transfer } from '../../../functions/schemas/transfers';

const eagerMoney = () =>
  z
    .object({
      amount: z.number().int().min(1).meta({ description: 'minor units' }),
      currency: z.string().regex(/^[A-Z]{3}$/),
      note: z.string().optional(),
      kind: z.enum(['a', 'b']).default('a'),
    })
    .refine((m) => m.amount < 100, { path: ['amount'], message: 'too much' })
    .meta({ description: 'money', example: { amount: 1, currency: 'EUR' } });

describe('lazySchema', () => {
  it('builds nothing until the schema is used, then once', () => {
    const build = vi.fn(() => z.string());
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.parse('x')).toBe('x');
    expect(schema.safeParse(1).success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('is the schema its build returns: class, shape, parsing, issues, metadata', () => {
    const lazy = lazySchema(eagerMoney);
    const eager = eagerMoney();
    expect(lazy).toBeInstanceOf(z.ZodObject);
    expect(lazy instanceof z.ZodType).toBe(true);
    expect(Object.keys(lazy.shape)).toEqual(['amount', 'currency', 'note', 'kind']);
    expect(lazy.parse({ amount: 5, currency: 'EUR' })).toEqual({
      amount: 5,
      currency: 'EUR',
      kind: 'a',
    });
    const bad = { amount: 500, currency: 'eur' };
    expect(lazy.safeParse(bad).error?.issues).toEqual(eager.safeParse(bad).error?.issues);
    expect(lazy.meta()).toEqual(eager.meta());
    expect(lazy.description).toBe('money');
  });

  it('renders the same JSON Schema as the eager schema, alone and nested', () => {
    const lazy = lazySchema(eagerMoney);
    for (const io of ['input', 'output'] as const) {
      expect(z.toJSONSchema(lazy, { io })).toEqual(z.toJSONSchema(eagerMoney(), { io }));
      const nested = (inner: z.ZodType) =>
        z.toJSONSchema(z.object({ inner, list: z.array(inner).optional() }), { io });
      expect(nested(lazy)).toEqual(nested(eagerMoney()));
    }
  });

  it('keeps its identity: wrappers and registries see the exported object', () => {
    const lazy = lazySchema(() => z.string().meta({ description: 'text' }));
    const optional = lazy.optional();
    expect(optional.unwrap()).toBe(lazy);
    expect(z.globalRegistry.get(lazy)).toEqual({ description: 'text' });
    expect(z.toJSONSchema(optional)).toEqual(
      z.toJSONSchema(z.string().meta({ description: 'text' }).optional()),
    );
  });

  it("builds the contract's schemas from lazy parts", () => {
    expect(Amount.safeParse(1.5).success).toBe(false);
    expect(Currency.parse('EUR')).toBe('EUR');
    expect(Transfer.shape.amount).toBe(Amount);
  });
});

describe('once', () => {
  it('builds its value on the first call and hands out the same one after', () => {
    const build = vi.fn(() => ({ a: z.string() }));
    const value = once(build);
    expect(build).not.toHaveBeenCalled();
    expect(value()).toBe(value());
    expect(build).toHaveBeenCalledTimes(1);
  });
});
