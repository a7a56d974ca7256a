/**
 * The checks registry: every check by name, once. Duplicate names and lookups of unknown names
 * are errors (a typo in a test must not silently check nothing).
 */
import type { Check } from './types.ts';

export class CheckRegistry {
  private readonly byName = new Map<string, Check<any>>();

  register(...checks: Check<any>[]): this {
    for (const c of checks) {
      if (this.byName.has(c.name)) throw new Error(`duplicate check name '${c.name}'`);
      if (!/^[a-z0-9-]+\.[a-z0-9.-]+$/.test(c.name))
        throw new Error(`bad check name '${c.name}' (area.rule-name)`);
      this.byName.set(c.name, c);
    }
    return this;
  }

  get<A = unknown>(name: string): Check<A> {
    const c = this.byName.get(name);
    if (!c)
      throw new Error(
        `unknown check '${name}'; known: ${[...this.byName.keys()].sort().join(', ')}`,
      );
    return c as Check<A>;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  all(): Check<any>[] {
    return [...this.byName.values()];
  }

  ofKind(kind: Check['kind']): Check<any>[] {
    return this.all().filter((c) => c.kind === kind);
  }
}

/** Defines a check with its types inferred (for the catalogue files). */
export function defineCheck<A = void>(c: Check<A>): Check<A> {
  return c;
}
