import fc from 'fast-check';
import type { SignatureForm } from '../../core/signature/index.ts';
import { fcParams } from '../shared/seed.ts';

/** One documented rule of the signature module, checked once per header form; throws when broken. */
export interface SignatureRule {
  readonly name: string;
  check(form: SignatureForm): void | Promise<void>;
}

/**
 * A `rule(name, property, params)` appending to `into`, so each property file lists its rules in
 * order. The rule's check asserts `property(form)` with the harness seed and `params` (e.g. `numRuns`).
 */
export function collect(into: SignatureRule[]) {
  return <Ts>(
    name: string,
    property: (form: SignatureForm) => fc.IRawProperty<Ts>,
    params?: fc.Parameters<Ts>,
  ): void => {
    into.push({ name, check: (form) => fc.assert(property(form), fcParams(params)) });
  };
}
