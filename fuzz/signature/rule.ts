import type { SignatureForm } from '../../core/signature/index.ts';

/** One documented rule of the signature module, checked once per header form; throws when broken. */
export interface SignatureRule {
  readonly name: string;
  check(form: SignatureForm): void | Promise<void>;
}

/** A `rule(name, check)` appending to `into`, so each property file lists its rules in order. */
export function collect(into: SignatureRule[]) {
  return (name: string, check: SignatureRule['check']): void => {
    into.push({ name, check });
  };
}
