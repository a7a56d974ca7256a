/**
 * The checks registry: every check by name, once. Duplicate names and lookups of unknown names
 * are errors (a typo in a test must not silently check nothing). The registry's type carries the
 * union of its checks, so a name it does not hold is a compile error where the name is literal.
 */
import type { Check, NameOf } from './types.ts';

type AnyCheck = Check<any, string>;

export class CheckRegistry<C extends AnyCheck = never> {
  private readonly byName = new Map<string, AnyCheck>();

  /** Adds checks; the returned registry (this one) is typed with them. */
  register<D extends AnyCheck>(...checks: D[]): CheckRegistry<C | D> {
    for (const c of checks) {
      if (this.byName.has(c.name)) throw new Error(`duplicate check name '${c.name}'`);
      if (!/^[a-z0-9-]+\.[a-z0-9.-]+$/.test(c.name))
        throw new Error(`bad check name '${c.name}' (area.rule-name)`);
      // A documented check says what its judgement may rest on (none: `[]`), so that no gate
      // failure is decided by one of our guesses unawares (core/checks/verdict.ts).
      if (c.provenance === 'documented' && !c.assumptions)
        throw new Error(`documented check '${c.name}' must declare its assumptions ([] for none)`);
      this.byName.set(c.name, c);
    }
    return this as CheckRegistry<C | D>;
  }

  get<N extends NameOf<C>>(name: N): Extract<C, { name: N }> {
    const c = this.byName.get(name);
    if (!c)
      throw new Error(
        `unknown check '${name}'; known: ${[...this.byName.keys()].sort().join(', ')}`,
      );
    return c as Extract<C, { name: N }>;
  }

  /** Whether `name` is registered (narrows a name read from a file or the command line). */
  has(name: string): name is NameOf<C> {
    return this.byName.has(name);
  }

  all(): C[] {
    return [...this.byName.values()] as C[];
  }

  names(): NameOf<C>[] {
    return [...this.byName.keys()] as NameOf<C>[];
  }

  ofKind(kind: Check['kind']): C[] {
    return this.all().filter((c) => c.kind === kind);
  }
}

/**
 * Defines a check with its types inferred: the literal name, and the argument type from the
 * annotation of `run`'s second parameter (no annotation: the check takes no arguments).
 */
export function defineCheck<const N extends string, A = undefined>(c: Check<A, N>): Check<A, N> {
  return c;
}
