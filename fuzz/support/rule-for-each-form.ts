import { describe, test } from 'node:test';
import { SIGNATURE_FORMS, type SignatureForm } from '../../src/signature/index.ts';

/**
 * Declares one rule as a suite named after it with one test per header form, so a failure reads
 * "<rule> > plain" and every rule is checked for both documented forms.
 */
export function ruleForEachForm(
  rule: string,
  check: (form: SignatureForm) => void | Promise<void>,
): void {
  describe(rule, () => {
    for (const form of SIGNATURE_FORMS) test(form, () => check(form));
  });
}
