/**
 * Every check of the harness, as one list whose type keeps each check's literal name and argument
 * type: `CheckName` is the union of names, `CheckArgsOf<N>` what `Verdict.check(N, …)` takes.
 */
import { AUTH_CHECKS } from './catalogue/auth.ts';
import { EXCHANGE_CHECKS } from './catalogue/exchange.ts';
import { TICKET_CHECKS } from './catalogue/tickets.ts';
import { VALIDATION_CHECKS } from './catalogue/validation.ts';
import { WEBHOOK_CHECKS } from './catalogue/webhooks.ts';
import type { ArgsOf, NameOf } from './types.ts';

export const ALL_CHECKS = [
  ...EXCHANGE_CHECKS,
  ...TICKET_CHECKS,
  ...AUTH_CHECKS,
  ...VALIDATION_CHECKS,
  ...WEBHOOK_CHECKS,
];

export type HarnessCheck = (typeof ALL_CHECKS)[number];
export type CheckName = NameOf<HarnessCheck>;
export type CheckArgsOf<N extends CheckName> = ArgsOf<HarnessCheck, N>;
