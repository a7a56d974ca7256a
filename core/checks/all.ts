/**
 * Every check of the harness, as one list whose type keeps each check's literal name and argument
 * type: `CheckName` is the union of names, `CheckArgsOf<N>` what `Verdict.check(N, …)` takes.
 */
import { AUTH_CHECKS } from './catalogue/auth.ts';
import { DELIVERY_ABOUT_CHECKS } from './catalogue/delivery-about.ts';
import { EXCHANGE_CHECKS } from './catalogue/exchange.ts';
import { RATE_LIMIT_VALUE_CHECKS } from './catalogue/rate-limit-values.ts';
import { RESOURCE_CHECKS } from './catalogue/resources.ts';
import { SLA_CHECKS } from './catalogue/sla.ts';
import { TICKET_LIST_CHECKS } from './catalogue/ticket-lists.ts';
import { TICKET_CHECKS } from './catalogue/tickets.ts';
import { VALIDATION_CHECKS } from './catalogue/validation.ts';
import { WEBHOOK_CHECKS } from './catalogue/webhooks.ts';
import type { ArgsOf, NameOf } from './types.ts';

export const ALL_CHECKS = [
  ...EXCHANGE_CHECKS,
  ...RATE_LIMIT_VALUE_CHECKS,
  ...TICKET_CHECKS,
  ...SLA_CHECKS,
  ...TICKET_LIST_CHECKS,
  ...RESOURCE_CHECKS,
  ...AUTH_CHECKS,
  ...VALIDATION_CHECKS,
  ...WEBHOOK_CHECKS,
  ...DELIVERY_ABOUT_CHECKS,
];

export type HarnessCheck = (typeof ALL_CHECKS)[number];
export type CheckName = NameOf<HarnessCheck>;
export type CheckArgsOf<N extends CheckName> = ArgsOf<HarnessCheck, N>;
