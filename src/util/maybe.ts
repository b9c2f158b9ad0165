// A value now, or later. Stores kept in this process answer at once and keep the request path
// synchronous; a shared store answers with a promise, and the same code handles both.
export type Maybe<T> = T | Promise<T>;

// What mapping a Maybe gives, by what the source is: a plain value stays plain.
export type MappedMaybe<A, T> = A extends Promise<unknown> ? Promise<T> : T;

export function then<A, T>(value: Maybe<A>, f: (a: A) => T): Maybe<T> {
  return value instanceof Promise ? value.then(f) : f(value);
}
