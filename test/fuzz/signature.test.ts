/** The signature properties (fuzz/signature): one suite per rule, one test per header form. */
import { describe, test } from 'node:test';
import { SIGNATURE_FORMS } from '../../core/signature/index.ts';
import { SIGNATURE_RULES } from '../../fuzz/signature/index.ts';

for (const { name, check } of SIGNATURE_RULES) {
  describe(name, () => {
    for (const form of SIGNATURE_FORMS) test(form, () => check(form));
  });
}
