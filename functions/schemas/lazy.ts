import * as z from 'zod';

/**
 * A schema built on its first use rather than at module load (docs/benchmarks.md "Module
 * init"): every function bundles every schema, but a request only needs its own route's, and
 * building them all took about a third of the HTTP function's init.
 *
 * The returned object IS the schema for everyone who imports it, with the same identity for
 * life: until its first use it is an empty object whose prototype builds the schema on any
 * property read, `in` or write. Then zod's own constructor initialises that object from the
 * built schema's definition, as `.clone()` would (same prototype, same parent for inherited
 * `.meta()`, same metadata), so the object is the schema `build` returns in every respect,
 * its identity included (zod's closures capture the instance they initialise). A lazy schema
 * whose build uses another one builds that one too, on demand.
 */
export function lazySchema<S extends z.ZodType>(build: () => S): S {
  let built = false;
  const shell: object = Object.create(
    new Proxy(
      {},
      {
        get: (_target, key, receiver) => Reflect.get(materialise(), key, receiver),
        set: (_target, key, value, receiver) => Reflect.set(materialise(), key, value, receiver),
        has: (_target, key) => key in materialise(),
        getPrototypeOf: () => Reflect.getPrototypeOf(materialise()),
      },
    ),
  );
  function materialise(): object {
    if (built) return shell;
    built = true;
    const schema = build();
    const { constr, def, parent } = schema._zod;
    Object.setPrototypeOf(shell, constr.prototype);
    // `new constr(def)` on this object: zod's constructors are plain functions of `this`.
    Reflect.apply(constr, shell, [def]);
    const instance = shell as S;
    if (parent) instance._zod.parent = parent;
    const meta = z.globalRegistry.get(schema);
    if (meta) z.globalRegistry.add(instance, meta);
    return shell;
  }
  return shell as S;
}

/** A value built once, on its first call (the plain objects of schemas that bodies spread). */
export function once<T>(build: () => T): () => T {
  let value: { readonly built: T } | undefined;
  return () => {
    value ??= { built: build() };
    return value.built;
  };
}
