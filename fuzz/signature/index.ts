/**
 * The fast-check properties of the signature module (core/signature), both header forms each:
 * run by `harness fuzz verifier` and by their test in test/fuzz/.
 */
import { SIGNATURE_FORMS, type SignatureForm } from '../../core/signature/index.ts';
import { RULES as bytes } from './bytes.ts';
import { RULES as differential } from './differential.ts';
import { RULES as headerValues } from './header-values.ts';
import { RULES as policy } from './policy.ts';
import type { SignatureRule } from './rule.ts';
import { RULES as tamper } from './tamper.ts';
import { RULES as valid } from './valid.ts';

export type { SignatureRule } from './rule.ts';

export const SIGNATURE_RULES: readonly SignatureRule[] = [
  ...bytes,
  ...differential,
  ...headerValues,
  ...policy,
  ...tamper,
  ...valid,
];

export interface SignatureRuleResult {
  rule: string;
  form: SignatureForm;
  passed: boolean;
  /** fast-check's message (seed, counterexample, shrink path) when the rule failed. */
  error?: string;
}

/** Checks every rule in both forms, reporting each result as it lands. */
export async function runSignatureProperties(
  onResult: (r: SignatureRuleResult) => void = () => {},
): Promise<SignatureRuleResult[]> {
  const results: SignatureRuleResult[] = [];
  for (const { name, check } of SIGNATURE_RULES) {
    for (const form of SIGNATURE_FORMS) {
      let result: SignatureRuleResult;
      try {
        await check(form);
        result = { rule: name, form, passed: true };
      } catch (e) {
        result = { rule: name, form, passed: false, error: (e as Error).message };
      }
      results.push(result);
      onResult(result);
    }
  }
  return results;
}
