/**
 * The readings catalogue: where the service docs say "not shown", the reference deployment
 * answers with our assumption (docs/assumptions.md); a reading is one *other* answer a correct
 * deployment may give there. Readings mirror the fault catalogue (server/faults.ts): a fault breaks
 * a documented rule and must fail its named check; a reading breaks only an assumption and must
 * never fail the gate — the checks it names in `shows` report it as an assumption mismatch.
 *
 * A reading is a patch of the deployment's behaviour (`Behaviour`, one field per choice, each
 * group's in its own file beside this one); `serve --reading U9=customer-note-is-reply` turns one
 * on, `serve --readings other` every reading at once (the first of each field, in catalogue
 * order), `serve --list-readings` prints them.
 */
import type { Reading as GroupReading } from './reading.ts';
import { TICKET_DEFAULTS, TICKET_READINGS, type TicketBehaviour } from './tickets.ts';
import { MESSAGE_DEFAULTS, MESSAGE_READINGS, type MessageBehaviour } from './messages.ts';
import { WEBHOOK_DEFAULTS, WEBHOOK_READINGS, type WebhookBehaviour } from './webhooks.ts';
import { ERROR_DEFAULTS, ERROR_READINGS, type ErrorBehaviour } from './errors.ts';
import { LIMIT_DEFAULTS, LIMIT_READINGS, type LimitBehaviour } from './limits.ts';
import { LIST_DEFAULTS, LIST_READINGS, type ListBehaviour } from './lists.ts';

/** What the deployment does wherever the docs are silent: every group's choices. */
export type Behaviour = TicketBehaviour &
  MessageBehaviour &
  WebhookBehaviour &
  ErrorBehaviour &
  LimitBehaviour &
  ListBehaviour;

/** Our assumptions: the reference deployment's default answer to every gap. */
export const DEFAULT_BEHAVIOUR: Readonly<Behaviour> = Object.freeze({
  ...TICKET_DEFAULTS,
  ...MESSAGE_DEFAULTS,
  ...WEBHOOK_DEFAULTS,
  ...ERROR_DEFAULTS,
  ...LIMIT_DEFAULTS,
  ...LIST_DEFAULTS,
});

export type Reading = GroupReading<Behaviour>;

export const READINGS: readonly Reading[] = [
  ...TICKET_READINGS,
  ...MESSAGE_READINGS,
  ...WEBHOOK_READINGS,
  ...ERROR_READINGS,
  ...LIMIT_READINGS,
  ...LIST_READINGS,
];

const BY_NAME = new Map(READINGS.map((r) => [r.name, r]));
if (BY_NAME.size !== READINGS.length) throw new Error('readings: duplicate reading name');

/** The profile that turns on every reading at once: `--readings other`. */
export const ALL_OTHER = 'other';

/**
 * The readings of `--readings other`: every reading in catalogue order, but the later of two that
 * set the same field (its alternatives — `U23=epoch-ms` and `U23=delta-seconds` — run one at a time).
 */
export function otherReadings(): Reading[] {
  const set = new Set<string>();
  return READINGS.filter((r) => {
    const fields = Object.keys(r.set);
    if (fields.some((f) => set.has(f))) return false;
    for (const f of fields) set.add(f);
    return true;
  });
}

/**
 * The readings `names` select (`other` is every reading of `otherReadings`), validated: an
 * unknown name, or two that set the same field, is a usage error, never a silent choice.
 */
export function selectReadings(names: Iterable<string>): Reading[] {
  const out: Reading[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (!name) continue;
    if (name === ALL_OTHER) {
      out.push(...otherReadings());
      continue;
    }
    const r = BY_NAME.get(name);
    if (!r)
      throw new Error(
        `unknown reading '${name}'; known readings: ${[...BY_NAME.keys()].join(', ')} (or '${ALL_OTHER}' for all at once)`,
      );
    out.push(r);
  }
  const unique = [...new Set(out)];
  const owner = new Map<string, string>();
  for (const r of unique)
    for (const f of Object.keys(r.set)) {
      const o = owner.get(f);
      if (o) throw new Error(`readings '${o}' and '${r.name}' both choose ${f}: pick one`);
      owner.set(f, r.name);
    }
  return unique;
}

/** The behaviour of a deployment with `readings` on. */
export function behaviourOf(readings: readonly Reading[]): Readonly<Behaviour> {
  return Object.freeze(Object.assign({}, DEFAULT_BEHAVIOUR, ...readings.map((r) => r.set)));
}
