/**
 * Outbound webhooks, seen by the capture receiver: each event triggered through the API arrives,
 * its payload is valid, its signature verifies over the exact received bytes in whichever header
 * form(s) arrive; an endpoint gets only its chosen events; a 5xx is retried with a stable delivery
 * id (U14); another workspace's tickets never reach this workspace's endpoints. Each test has its
 * own subscription (the receiver tells them apart by path) because tests run in parallel — but
 * the event tests, which share one ticket's lifecycle and one endpoint per worker (a gate run must fit a Team key's burst).
 *
 * What each delivery is about — the action that fired it, its ticket and customer as the API
 * showed them — is judged for every delivery of the run at its end (delivery-sweep.ts): the
 * tests tagged with those checks are the ones whose deliveries feed them.
 */
import { randomBytes } from 'node:crypto';
import { ENVELOPE_EVENTS } from '../core/checks/catalogue/webhooks.ts';
import type { Assumption, Exchange } from '../core/checks/types.ts';
import type { ApiClient } from '../core/http/api-client.ts';
import { listRows } from '../core/http/list-page.ts';
import { SIGNATURE_HEADER } from '../core/signature/index.ts';
import { type CapturedDelivery, deliveryJson } from '../core/webhooks/capture-receiver.ts';
import {
  ledgerActionOf,
  ledgerWorkspace,
  matchDeliveries,
} from '../core/webhooks/delivery-ledger.ts';
import { TRIGGERABLE_EVENTS } from '../core/webhooks/endpoints-file.ts';
import { missingCredential } from '../core/target/resolve-target.ts';
import { asShared, type Subscription, type Target, test } from './fixtures.ts';
import { need } from './need.ts';
import { RETRY_MIN_WAIT_MS } from './retry-probe.ts';
import {
  MISSING_ID,
  type Tag,
  createTicket,
  deliveryExchange,
  eventOf,
  idOf,
  observeCrossCutting,
  skipIfReadOnly,
  settleDeliveries,
  ticketIdOf,
  unsubscribe,
  waitDeliveries,
} from './helpers.ts';

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));
test.beforeEach(({ target }) => skipIfReadOnly(target, test.skip));

/** Event kinds named by the docs, with the documented envelope; the others' identifiers are assumed (U12). */
const DOCUMENTED_EVENTS = new Set(ENVELOPE_EVENTS);

const path = (id: string, rest = '') => `/v1/tickets/${encodeURIComponent(id)}${rest}`;

/**
 * The customer of every ticket these tests create: letters outside ASCII and one outside the
 * Basic Multilingual Plane (𠮷, U+20BB7, of the surname 𠮷田), so a body the service encodes as
 * anything but UTF-8 (Latin-1: `ë` as the lone byte 0xEB) cannot pass for JSON.
 */
const CUSTOMER = { email: 'zoe.angstrom@example.com', name: 'Zoë Ångström 𠮷田' };

/**
 * Checks of what a delivery is about, judged by the run's delivery sweep over every delivery: a
 * test carries their tags when its deliveries are the documented events they judge (what
 * `--grep` and the detection matrix run for them).
 */
const ABOUT_TAGS = [
  '@webhook.delivered-once',
  '@webhook.event-caused',
  '@webhook.ticket-matches-api',
  '@webhook.customer-is-requester',
];

/** A macro that leaves the ticket open (its other actions stay observable). */
async function someMacro(api: ApiClient): Promise<string | undefined> {
  const list = await api.call('get', '/v1/macros');
  const macros = listRows(list.json) as Array<{ id: string; actions: { status?: string } }>;
  return (macros.find((m) => m.actions.status !== 'closed') ?? macros[0])?.id;
}

/** For each event: what to do through the API, after creating the ticket, to make it happen. */
const TRIGGERS: Record<string, (api: ApiClient, id: string) => Promise<Exchange | undefined>> = {
  'ticket.created': async () => undefined,
  'ticket.replied': (api, id) =>
    api.send('POST', path(id, '/messages'), { body: { body: 'On it.', author: 'agent' } }),
  'agent.replied': (api, id) =>
    api.send('POST', path(id, '/messages'), { body: { body: 'Agent reply.', author: 'agent' } }),
  'customer.replied': (api, id) =>
    api.send('POST', path(id, '/messages'), {
      body: { body: 'Customer reply.', author: 'customer' },
    }),
  'ticket.note_added': (api, id) =>
    api.send('POST', path(id, '/messages'), {
      body: { body: 'Internal note.', author: 'agent', internal: true },
    }),
  'ticket.status_changed': (api, id) =>
    api.send('PATCH', path(id), { body: { status: 'pending' } }),
  'ticket.closed': (api, id) => api.send('POST', path(id, '/close')),
  'macro.applied': async (api, id) => {
    const macro = await someMacro(api);
    return api.send('POST', `/v1/macros/${encodeURIComponent(macro ?? 'none')}/apply`, {
      body: { ticket_id: id },
    });
  },
};

const ok2xx = (ex?: Exchange) => {
  const st = ex?.response?.status;
  return st !== undefined && st >= 200 && st < 300;
};
const answered = (ex?: Exchange) => (ex?.response?.json ?? {}) as Record<string, unknown>;

/**
 * Whether a trigger took effect: no, yes, or yes as far as our reading of a gap goes — a message
 * whose answer does not show the `author` and `internal` it was stored with is a reply of the kind
 * we sent only by our assumed fields (U9), so the events of that kind may rightly not come.
 */
type Effect = boolean | Assumption;

/** A 2xx message; its kind shown by the answer, or resting on U9. */
const messageEffect = (ex?: Exchange): Effect => {
  if (!ok2xx(ex)) return false;
  const a = answered(ex);
  if ((a.author === 'agent' || a.author === 'customer') && typeof a.internal === 'boolean')
    return true;
  const sent = ex!.request.body ?? '';
  return {
    gap: 'U9',
    why: `the message ${sent.slice(0, 80)} was taken for a reply of that author by its fields author and internal, which are ours; the answer does not show what was stored`,
  };
};

/**
 * Whether the trigger did what makes the event happen, by the deployment's own answer: a close
 * that left the ticket open, or a note stored as public, sends no ticket.closed or note event —
 * rightly; what the operation did is the ticket checks' verdict (tickets.close,
 * tickets.message-stored), and the webhook checks judge the events of what did happen.
 */
const TOOK_EFFECT: Record<string, (ex: Exchange | undefined) => Effect> = {
  'ticket.created': () => true,
  'ticket.replied': messageEffect,
  'agent.replied': messageEffect,
  'customer.replied': messageEffect,
  'ticket.note_added': (ex) => ok2xx(ex) && answered(ex).internal === true,
  'ticket.status_changed': (ex) => ok2xx(ex) && answered(ex).status === 'pending',
  // Resolved or closed: a status other than the unresolved ones (U1) — the ticket may have been
  // pending before the close.
  'ticket.closed': (ex) =>
    ok2xx(ex) && !['open', 'pending', 'on_hold'].includes(String(answered(ex).status)),
  'macro.applied': ok2xx,
};

function headerForms(d: CapturedDelivery): string[] {
  return (['prefixed', 'plain'] as const)
    .filter((f) => d.headers[SIGNATURE_HEADER[f].toLowerCase()] !== undefined)
    .map((f) => SIGNATURE_HEADER[f]);
}

/** Subscribes (or picks the configured endpoint), runs `body`, removes what it created. */
async function withSubscription<T>(
  target: Target,
  opts: Parameters<Target['subscribe']>[0],
  body: (sub: Subscription) => Promise<T>,
): Promise<T> {
  const sub = await target.subscribe(opts);
  if (typeof sub === 'string') {
    test.skip(true, sub);
    throw new Error(sub); // not reached: skip throws
  }
  try {
    return await body(sub);
  } finally {
    await unsubscribe(target, sub);
  }
}

/**
 * Why an expected delivery is missing: nothing at all reached the receiver during the run (the
 * URL, tunnel or ingress, not the service's rule), or only this one did not arrive (undefined:
 * the documented failure speaks for itself).
 */
async function diagnosis(target: Target): Promise<string | undefined> {
  const all = await target.receiver.all();
  if (all.length > 0) return undefined;
  return `nothing reached the capture receiver at all during the run (listening on ${target.receiver.listenUrl}, public URL ${target.receiverUrl}): likely the URL, tunnel or ingress — check that the deployment can reach it`;
}

/** Creates a ticket and triggers `event` on it; the ticket id, and whether the trigger took effect. */
async function trigger(
  api: ApiClient,
  tag: Tag,
  event: string,
): Promise<{ id: string; tookEffect: Effect }> {
  const created = await createTicket(api, tag, `webhook ${event}`, {
    priority: 'normal',
    requester: CUSTOMER,
  });
  const id = idOf(created);
  const ex = await TRIGGERS[event]!(api, id);
  return { id, tookEffect: TOOK_EFFECT[event]!(ex) };
}

/**
 * The order one ticket's lifecycle fires the events in (TRIGGERS, each by its own action): the
 * macro before the close, which would leave nothing to apply it to.
 */
const LIFECYCLE = [
  'ticket.created',
  'ticket.replied',
  'agent.replied',
  'customer.replied',
  'ticket.note_added',
  'ticket.status_changed',
  'macro.applied',
  'ticket.closed',
] as const;

/** One ticket taken through every event's trigger, seen by one endpoint subscribed to them all. */
interface Lifecycle {
  sub: Subscription;
  id: string;
  /** Per event: whether its trigger took effect (TOOK_EFFECT). */
  tookEffect: Record<string, Effect>;
  /**
   * On a deployment with an admin surface, the endpoints the delivery-rule and signature tests
   * judge, subscribed before the lifecycle so its deliveries reach them too; and the other
   * workspace's ticket, taken through its actions first (see runLifecycle).
   */
  rules?: {
    /** Disjoint choices: ticket.closed (prefixed form); ticket.created and customer.replied (plain). */
    chosen: Subscription[];
    /** ticket.created in each endpoint form: prefixed, plain, both. */
    forms: Subscription[];
    /** ticket.created at an HTTPS endpoint (the worker's HTTPS receiver). */
    secure: Subscription;
    /** Workspace B's ticket and its actions (create, agent and customer replies, close), or why none. */
    other: { id: string; exchanges: Exchange[] } | string;
  };
}

/**
 * This worker's shared lifecycle (a gate run must fit a Team key's burst): one ticket and
 * one subscription serve every event's test — about 12 requests where a ticket, an endpoint and a
 * clean-up per event cost some 48 — each test judging its own event's deliveries. Made by the
 * first webhook test this worker runs that needs it (with its client: its exchanges are that
 * test's). A string: no endpoint takes every event (dashboard endpoints each subscribed to a
 * few), and each test makes its own as before.
 */
let lifecycle: Promise<Lifecycle | string> | undefined;

/**
 * On a deployment with an admin surface the same lifecycle also serves the delivery rules and
 * the signature forms (a ticket taken through six triggers for the event selection,
 * one for the forms and one to bound the isolation wait cost some 12 requests with the key):
 * their endpoints are subscribed first, so the lifecycle's deliveries reach each of them, and
 * workspace B's ticket is created, replied to and closed before it, so once the lifecycle's own
 * deliveries have arrived (and the deployment flushed) B's have had their chance too. Every
 * endpoint is removed again once the deliveries are in: the tests judge what arrived.
 */
async function runLifecycle(api: ApiClient, tag: Tag, target: Target): Promise<Lifecycle | string> {
  const sub = await target.subscribe({ events: [...LIFECYCLE], form: 'both' });
  if (typeof sub === 'string') return sub;
  const made: Subscription[] = [];
  let rules: Lifecycle['rules'];
  try {
    if (target.resolved.admin) {
      const subscribe = async (events: string[], form: 'prefixed' | 'plain') => {
        const s = await target.subscribe({ events, form });
        if (typeof s === 'string') throw new Error(s);
        made.push(s);
        return s;
      };
      const chosen = [
        await subscribe(['ticket.closed'], 'prefixed'),
        await subscribe(['ticket.created', 'customer.replied'], 'plain'),
      ];
      const forms = [await subscribe(['ticket.created'], 'prefixed'), chosen[1]!, sub];
      const secure = await target.subscribe({ events: ['ticket.created'], https: true });
      if (typeof secure === 'string') throw new Error(secure);
      made.push(secure);
      rules = { chosen, forms, secure, other: await otherWorkspaceActions(api, tag, target) };
    }
    const created = await createTicket(api, tag, 'webhook lifecycle', {
      priority: 'normal',
      requester: CUSTOMER,
    });
    const id = idOf(created);
    const tookEffect: Record<string, Effect> = {};
    for (const event of LIFECYCLE)
      tookEffect[event] = TOOK_EFFECT[event]!(await TRIGGERS[event]!(api, id));
    if (rules) {
      // Every endpoint's deliveries in before the endpoints go: what each must get (its chosen
      // events the docs name that happened: the U12 identifiers may not exist, and waiting for
      // them would only cost time), then the deployment's flush for the rest, unchosen or B's.
      const happened = new Set<string>(
        LIFECYCLE.filter((e) => tookEffect[e] && DOCUMENTED_EVENTS.has(e)),
      );
      await Promise.all(
        [sub, ...made].map((s) =>
          waitDeliveries(s, (ds) =>
            s.events
              .filter((e) => happened.has(e))
              .every((e) => ds.some((d) => ticketIdOf(d) === id && eventOf(d) === e)),
          ),
        ),
      );
      await settleDeliveries(target, 1000);
      for (const s of [sub, ...made]) await unsubscribe(target, s);
    }
    return { sub, id, tookEffect, ...(rules ? { rules } : {}) };
  } catch (e) {
    for (const s of [sub, ...made]) await unsubscribe(target, s);
    throw e;
  }
}

/** Workspace B creates a ticket, replies to it as agent and customer, and closes it. */
async function otherWorkspaceActions(
  api: ApiClient,
  tag: Tag,
  target: Target,
): Promise<{ id: string; exchanges: Exchange[] } | string> {
  if (!target.keys.otherWorkspace)
    return missingCredential(target.resolved, target.cfg, ['otherWorkspaceKey']) ?? 'not run';
  const b = api.withKey(target.keys.otherWorkspace);
  const created = await createTicket(b, tag, 'webhook isolation: the other workspace', {
    requester: CUSTOMER,
  });
  const id = idOf(created);
  const exchanges: Exchange[] = [created];
  if (id !== MISSING_ID) {
    for (const author of ['agent', 'customer'] as const)
      exchanges.push(
        await b.send('POST', path(id, '/messages'), {
          body: { body: `A ${author} of the other workspace.`, author },
        }),
      );
    exchanges.push(await b.send('POST', path(id, '/close')));
  }
  return { id, exchanges };
}

/** The worker's shared lifecycle, made by the first test that needs it. */
function sharedLifecycle(api: ApiClient, tag: Tag, target: Target): Promise<Lifecycle | string> {
  if (!lifecycle) {
    // The worker's set-up, not the cost of the first webhook test (asShared).
    lifecycle = asShared(() => runLifecycle(api, tag, target));
    // A lifecycle that did not finish (the key's budget spent: its test is skipped) is made
    // again by the next test, never handed over half made.
    lifecycle.catch(() => {
      lifecycle = undefined;
    });
  }
  return lifecycle;
}

/** The shared lifecycle's subscription and ticket for `event`, or the test's own (fallback). */
async function eventOnTicket(
  api: ApiClient,
  tag: Tag,
  target: Target,
  event: string,
  body: (sub: Subscription, id: string, tookEffect: Effect) => Promise<void>,
): Promise<void> {
  const shared = await sharedLifecycle(api, tag, target);
  if (typeof shared !== 'string')
    return body(shared.sub, shared.id, shared.tookEffect[event] ?? false);
  await withSubscription(target, { events: [event], form: 'both' }, async (sub) => {
    const { id, tookEffect } = await trigger(api, tag, event);
    await body(sub, id, tookEffect);
  });
}

/** The shared lifecycle with the delivery rules' endpoints (admin surface), or undefined. */
async function sharedRules(
  api: ApiClient,
  tag: Tag,
  target: Target,
): Promise<(Lifecycle & { rules: NonNullable<Lifecycle['rules']> }) | undefined> {
  if (!target.resolved.admin) return undefined;
  const shared = await sharedLifecycle(api, tag, target);
  return typeof shared !== 'string' && shared.rules
    ? (shared as Lifecycle & { rules: NonNullable<Lifecycle['rules']> })
    : undefined;
}

test.describe('webhook events', () => {
  // In order in one worker (a failure still lets the rest run): the lifecycle is made once.
  test.describe.configure({ mode: 'default' });
  test.afterAll(async ({ target }) => {
    // The lifecycle with the delivery rules' endpoints removed its endpoints itself, and the
    // other describes' tests may still judge its deliveries: it stays.
    const shared = await lifecycle?.catch(() => undefined);
    if (shared && typeof shared !== 'string' && !shared.rules) {
      lifecycle = undefined;
      await unsubscribe(target, shared.sub);
    }
  });

  for (const event of LIFECYCLE) {
    const documented = DOCUMENTED_EVENTS.has(event);
    test(`${event} is delivered, valid and signed`, {
      tag: documented
        ? [
            '@webhook.event-delivered',
            '@webhook.content-type',
            '@webhook.payload-schema',
            '@webhook.event-shape',
            '@webhook.signature-valid',
            ...ABOUT_TAGS,
          ]
        : [
            '@webhook.event-named',
            '@webhook.content-type',
            '@webhook.event-shape',
            '@webhook.signature-valid',
          ],
    }, async ({ api, verdict, needs, tag, target, probe }) => {
      needs('webhook');
      await eventOnTicket(api, tag, target, event, async (sub, id, tookEffect) => {
        const all = await waitDeliveries(
          sub,
          (ds) => ds.some((d) => eventOf(d) === event && ticketIdOf(d) === id),
          tookEffect ? undefined : 1000,
        );
        // This event's deliveries about the ticket (the endpoint may take the others too).
        const about = all.filter((d) => ticketIdOf(d) === id);
        const mine = about.filter((d) => eventOf(d) === event);
        const got = mine.length > 0 ? [event] : [];
        probe(documented ? 'U13' : 'U12', `events-delivered:${event}`, got);
        // A missing event's failure says what did arrive about the ticket, in order: "others came,
        // this one did not" is the service's rule broken, not the URL.
        const arrived = [...new Set(about.map((d) => eventOf(d) ?? '(no event)'))];
        if (tookEffect)
          verdict.check(documented ? 'webhook.event-delivered' : 'webhook.event-named', undefined, {
            event,
            got: arrived,
            diagnosis: got.includes(event) ? undefined : await diagnosis(target),
            ...(typeof tookEffect === 'object' ? { leansOn: tookEffect } : {}),
          });
        for (const d of mine) {
          const ex = deliveryExchange(d, target.receiverUrl, sub);
          const payload = deliveryJson(d);
          probe('U13', `payload-keys:${event}`, payload ? Object.keys(payload).sort() : null);
          probe('U15', `signature-headers:${event}`, headerForms(d));
          verdict.check('webhook.signature-valid', ex, { raw: d.raw, secret: sub.secret });
          verdict.check('webhook.content-type', ex, { raw: d.raw });
          // The event's full shape (U13) is judged where the documented envelope holds: a
          // missing envelope field is webhook.payload-schema's verdict alone.
          if (!documented || verdict.check('webhook.payload-schema', ex, { event, payload }))
            verdict.check('webhook.event-shape', ex, { event, payload });
        }
      });
    });
  }

  test('sla.at_risk fires once when 25 % of the target is left (clock advanced)', {
    tag: [
      '@webhook.sla-at-risk-fired',
      '@webhook.sla-at-risk-once',
      '@webhook.event-shape',
      '@webhook.signature-valid',
    ],
  }, async ({ api, verdict, needs, tag, target }) => {
    test.skip(
      !target.resolved.admin,
      'not run: sla.at_risk needs the clock advanced to just before a due time, which only the reference deployment (HARNESS_ADMIN_TOKEN) allows',
    );
    needs('webhook', 'adminToken');
    await withSubscription(target, { events: ['sla.at_risk'], form: 'both' }, async (sub) => {
      const created = await createTicket(api, tag, 'webhook sla.at_risk', {
        priority: 'high',
        requester: CUSTOMER,
      });
      const id = idOf(created);
      // Its at-risk threshold (assumed: 25 % of the target left) is the deployment's own, but at
      // risk is before the due time: the clock is moved to two minutes before this ticket's own
      // due time, as the deployment answered it (its targets are ticket.sla-priority-order's
      // verdict), else before high's assumed 1 h — past any threshold, and not yet overdue.
      const t = created.json as { sla?: { first_response_due?: string } };
      const now = Date.parse((await target.admin('GET', '/admin/clock')).json?.now ?? '');
      const dueS = (Date.parse(t?.sla?.first_response_due ?? '') - now) / 1000;
      const seconds = Math.max(0, Math.floor((dueS > 0 ? dueS : 3600) - 120));
      const moved = await target.admin('POST', '/admin/clock/advance', { seconds });
      need(moved.status, 'the reference clock moved').toBe(200);
      const all = await waitDeliveries(sub, (ds) =>
        ds.some((d) => eventOf(d) === 'sla.at_risk' && ticketIdOf(d) === id),
      );
      const got = all.filter((d) => ticketIdOf(d) === id).map((d) => eventOf(d) ?? '');
      verdict.check('webhook.sla-at-risk-fired', undefined, { got });
      for (const d of all.filter((x) => ticketIdOf(x) === id && eventOf(x) === 'sla.at_risk')) {
        const ex = deliveryExchange(d, target.receiverUrl, sub);
        verdict.check('webhook.signature-valid', ex, { raw: d.raw, secret: sub.secret });
        verdict.check('webhook.event-shape', ex, {
          event: 'sla.at_risk',
          payload: deliveryJson(d),
        });
      }
      if (got.includes('sla.at_risk')) {
        // A minute later, still before the due time: no second announcement.
        await target.admin('POST', '/admin/clock/advance', { seconds: 60 });
        await settleDeliveries(target);
        // Announcements, not copies: one delivery sent again is webhook.delivered-once's verdict.
        const count = new Set(
          (await sub.deliveries())
            .filter((d) => ticketIdOf(d) === id && eventOf(d) === 'sla.at_risk')
            .map((d) => d.headers['x-service-delivery'] ?? d.raw.toString('base64')),
        ).size;
        verdict.check('webhook.sla-at-risk-once', undefined, { count });
      }
    });
  });
});

test.describe('webhook signatures', () => {
  test('each endpoint form (prefixed, plain, both) carries its header(s), each verifying', {
    tag: ['@webhook.signature-valid', '@webhook.signature-form'],
  }, async ({ api, verdict, needs, tag, target, probe }) => {
    needs('webhook');
    // Dashboard endpoints: each one set up with a known form (unknown ones are only observed).
    const configured = target.dashboard
      ? target.cfg.webhookEndpoints.filter(
          (e) => e.form !== 'unknown' && e.events.includes('ticket.created'),
        )
      : [];
    test.skip(
      target.dashboard && configured.length === 0,
      'not run: no configured endpoint subscribed to ticket.created declares its header form (form: unknown)',
    );
    // What each form's endpoint got of ticket `id`: its header(s), each verifying.
    const judge = async (subs: Subscription[], id: string) => {
      for (const sub of subs) {
        const form = sub.form;
        const all = await waitDeliveries(sub, (ds) => ds.some((d) => ticketIdOf(d) === id));
        const mine = all.filter((d) => ticketIdOf(d) === id);
        probe(
          'U15',
          `endpoint-signature-headers:${form}`,
          mine.length ? headerForms(mine[0]!) : null,
        );
        verdict.check('webhook.event-delivered', undefined, {
          event: 'ticket.created',
          got: mine.map((d) => eventOf(d) ?? ''),
        });
        for (const d of mine) {
          const ex = deliveryExchange(d, target.receiverUrl, sub);
          verdict.check('webhook.signature-valid', ex, { raw: d.raw, secret: sub.secret });
          if (form !== 'unknown') verdict.check('webhook.signature-form', ex, { form });
        }
      }
    };
    // The worker's shared lifecycle: its ticket.created reached an endpoint of each form.
    const shared = await sharedRules(api, tag, target);
    if (shared) return judge(shared.rules.forms, shared.id);
    const subs = target.dashboard
      ? configured.map((e) => target.endpoint(e))
      : await Promise.all(
          (['prefixed', 'plain', 'both'] as const).map(async (form) => {
            const sub = await target.subscribe({ events: ['ticket.created'], form });
            if (typeof sub === 'string') throw new Error(sub);
            return sub;
          }),
        );
    try {
      const id = idOf(
        await createTicket(api, tag, 'webhook signature forms', { requester: CUSTOMER }),
      );
      await judge(subs, id);
    } finally {
      for (const sub of subs) await unsubscribe(target, sub);
    }
  });
});

test.describe('webhook delivery over HTTPS', () => {
  test('an endpoint at an HTTPS URL receives its chosen events', {
    tag: ['@webhook.https-delivered', '@webhook.signature-valid'],
  }, async ({ api, verdict, needs, tag, target }) => {
    needs('webhook');
    // What an HTTPS endpoint got of ticket `id`'s creation, and its signature.
    const judge = async (sub: Subscription, id: string) => {
      const url = sub.receiverUrl;
      const all = await waitDeliveries(sub, (ds) =>
        ds.some((d) => ticketIdOf(d) === id && eventOf(d) === 'ticket.created'),
      );
      const mine = all.filter((d) => ticketIdOf(d) === id);
      verdict.check('webhook.https-delivered', undefined, {
        event: 'ticket.created',
        got: mine.map((d) => eventOf(d) ?? ''),
        url,
      });
      for (const d of mine)
        verdict.check('webhook.signature-valid', deliveryExchange(d, url, sub), {
          raw: d.raw,
          secret: sub.secret,
        });
    };
    // Reference: the lifecycle's ticket reached the worker's HTTPS receiver too.
    const shared = await sharedRules(api, tag, target);
    if (shared) return judge(shared.rules.secure, shared.id);
    // A dashboard whose public URL is HTTPS: every endpoint is one.
    test.skip(
      !target.receiverUrl.startsWith('https:'),
      'not run: the public webhook URL (HARNESS_WEBHOOK_URL) is plain HTTP',
    );
    const lifecycle = await sharedLifecycle(api, tag, target);
    if (typeof lifecycle === 'string') return test.skip(true, lifecycle);
    await judge(lifecycle.sub, lifecycle.id);
  });
});

test.describe('webhook delivery rules', () => {
  test('an endpoint receives only the events chosen for it', {
    tag: ['@webhook.only-chosen-events', '@webhook.event-delivered', ...ABOUT_TAGS],
  }, async ({ api, verdict, needs, tag, target }) => {
    needs('webhook');
    // Every endpoint is checked after every trigger: any delivery of an event it did not choose
    // fails, whichever endpoint it reached. Dashboard: every configured endpoint (one of them
    // must lack an event the suite triggers, or nothing unchosen can show). Reference: two
    // endpoints with disjoint choices, so selection applied per workspace instead of per
    // endpoint shows too.
    // What each endpoint got of ticket `id`: its chosen events that happened, and nothing else.
    const judge = async (endpoints: Subscription[], id: string, happened: Set<string>) => {
      const forTicket = (ds: CapturedDelivery[]) => ds.filter((d) => ticketIdOf(d) === id);
      // What each endpoint must get: its chosen events the docs name (the U12 identifiers may
      // not exist on a real deployment, and waiting for them would only cost time).
      const expectedAt = (sub: Subscription) =>
        sub.events.filter(
          (e) =>
            DOCUMENTED_EVENTS.has(e) &&
            (TRIGGERABLE_EVENTS as readonly string[]).includes(e) &&
            happened.has(e),
        );
      await Promise.all(
        endpoints.map((sub) =>
          waitDeliveries(sub, (ds) =>
            expectedAt(sub).every((e) => forTicket(ds).some((d) => eventOf(d) === e)),
          ),
        ),
      );
      await settleDeliveries(target, 1000);
      for (const sub of endpoints) {
        const got = forTicket(await sub.deliveries()).map((d) => eventOf(d) ?? '(no event)');
        // A deployment that delivers nothing unchosen because it delivers nothing must not pass.
        for (const event of expectedAt(sub))
          verdict.check('webhook.event-delivered', undefined, { event, got });
        verdict.check('webhook.only-chosen-events', undefined, {
          chosen: sub.events,
          got,
          endpoint: target.dashboard
            ? sub.path || '/'
            : `the endpoint for ${sub.events.join(', ')}`,
        });
      }
    };
    // Reference: the worker's shared lifecycle took its ticket through every trigger while the
    // two endpoints (and the lifecycle's own, subscribed to everything) were listening.
    const shared = await sharedRules(api, tag, target);
    if (shared)
      return judge(
        shared.rules.chosen,
        shared.id,
        new Set<string>(LIFECYCLE.filter((e) => shared.tookEffect[e])),
      );
    let endpoints: Subscription[];
    if (target.dashboard) {
      const eps = target.cfg.webhookEndpoints;
      test.skip(
        !eps.some((e) => TRIGGERABLE_EVENTS.some((ev) => !e.events.includes(ev))),
        'not run: no configured endpoint is subscribed to a strict subset of the events (configure one, e.g. only ticket.created)',
      );
      endpoints = eps.map((e) => target.endpoint(e));
    } else {
      endpoints = [];
      for (const [events, form] of [
        [['ticket.closed'], 'prefixed'],
        [['ticket.created', 'customer.replied'], 'plain'],
      ] as const) {
        const sub = await target.subscribe({ events: [...events], form });
        if (typeof sub === 'string') throw new Error(sub);
        endpoints.push(sub);
      }
    }
    try {
      const created = await createTicket(api, tag, 'webhook event selection', {
        requester: CUSTOMER,
      });
      const id = idOf(created);
      // Every other trigger first, ticket.closed last, so once the last expected delivery has
      // arrived (and the service has flushed), the unchosen ones have had their chance too.
      const happened = new Set(['ticket.created']);
      for (const event of [
        'ticket.replied',
        'customer.replied',
        'ticket.note_added',
        'ticket.status_changed',
        'macro.applied',
        'ticket.closed',
      ])
        if (TOOK_EFFECT[event]!(await TRIGGERS[event]!(api, id))) happened.add(event);
      await judge(endpoints, id, happened);
    } finally {
      for (const sub of endpoints) await unsubscribe(target, sub);
    }
  });

  test('a 5xx answer is retried with the same delivery id (U14)', {
    tag: ['@webhook.retried-after-5xx'],
  }, async ({ api, verdict, needs, tag, target, probe }) => {
    needs('webhook');
    // The receiver answers 503 to the first attempt of a marked delivery and waits for the retry,
    // on a real deployment with its real schedule. On a dashboard deployment the global setup
    // triggered it before the suite (contracts/retry-probe.ts): the wait has overlapped every
    // other test, and goes on only until RETRY_MIN_WAIT_MS from the 503 when they were quicker.
    const waitMs = target.dashboard ? target.cfg.webhookRetryWaitMs : 5000;
    test.setTimeout(waitMs + 30_000);
    const early = target.dashboard ? target.retryProbe : undefined;
    await withSubscription(target, { events: ['ticket.created'], form: 'both' }, async (sub) => {
      let id: string;
      let until: number;
      if (early) {
        id = early.ticketId;
        target.created.push({ kind: 'ticket', id });
        until = early.armedAt + Math.min(waitMs, RETRY_MIN_WAIT_MS);
      } else {
        const marker = `retry-${randomBytes(6).toString('hex')}`;
        await target.receiver.failFirst({ marker, attempts: 1, status: 503 });
        id = idOf(
          await createTicket(api, tag, `webhook retries ${marker}`, { requester: CUSTOMER }),
        );
        until = Date.now() + waitMs;
      }
      const started = early?.armedAt ?? Date.now();
      const all = await waitDeliveries(
        sub,
        (ds) => ds.filter((d) => ticketIdOf(d) === id).length >= 2,
        Math.max(0, until - Date.now()),
      );
      const waitedMs = Date.now() - started;
      const mine = all.filter((d) => ticketIdOf(d) === id);
      const deliveryIds = mine.map((d) => d.headers['x-service-delivery'] ?? '');
      probe(
        'U14',
        'retry-answers',
        mine.map((d) => d.answered),
        'answers the receiver gave, attempt by attempt (503 to the first)',
      );
      // A timing (id ending in -ms): compared with the baseline as a range, not as a value.
      probe(
        'U14',
        'retry-spacing-ms',
        mine.slice(1).map((d, i) => d.receivedAt - mine[i]!.receivedAt),
        'ms between attempts (100 ms base with jitter on the embedded deployment)',
      );
      verdict.check('webhook.retried-after-5xx', undefined, {
        attempts: mine.length,
        deliveryIds:
          deliveryIds.filter(Boolean).length === mine.length
            ? deliveryIds
            : [...deliveryIds, '(missing)'],
        waitedMs,
      });
    });
  });

  test("another workspace's tickets are never delivered to this workspace's endpoints", {
    tag: ['@webhook.workspace-isolated'],
  }, async ({ api, verdict, needs, tag, target, exchanges }) => {
    needs('webhook', 'otherWorkspaceKey');
    // Every endpoint at once, judged as the run's sweep judges them: one evaluation, the first
    // delivery about workspace B's ticket `theirs` that arrived as the evidence, how many in all.
    const judge = async (endpoints: Subscription[], theirs: string, exs: readonly Exchange[]) => {
      const actions = exs.flatMap((ex, i) => {
        const a = ledgerActionOf(ex, ledgerWorkspace(ex, target.keys.otherWorkspace), i);
        return a ? [a] : [];
      });
      const about = [];
      for (const sub of endpoints)
        for (const d of await sub.deliveries())
          if (ticketIdOf(d) === theirs) about.push({ sub, d });
      about.sort((x, y) => x.d.receivedAt - y.d.receivedAt);
      const matches = matchDeliveries(
        actions,
        about.map(({ d }) => ({ endpoint: d.path.split('?')[0]!, delivery: d })),
      );
      const first = about[0];
      verdict.check(
        'webhook.workspace-isolated',
        first ? deliveryExchange(first.d, target.receiverUrl, first.sub) : undefined,
        { matches },
      );
    };
    // Reference: B's ticket went through its actions while this workspace's endpoints of the
    // worker's shared lifecycle were listening — every event, each chosen subset, each form —
    // and the lifecycle's own deliveries, after B's, bound the wait.
    const shared = await sharedRules(api, tag, target);
    if (shared) {
      const other = shared.rules.other;
      if (typeof other === 'string') {
        test.skip(true, other);
        return;
      }
      need(other.id, 'the other workspace created a ticket').not.toBe(MISSING_ID);
      return judge(
        [shared.sub, ...shared.rules.chosen, shared.rules.forms[0]!],
        other.id,
        other.exchanges,
      );
    }
    // This workspace's endpoints: every configured one (dashboard), or one subscribed to every
    // event the suite can trigger (reference). The other workspace has none of ours to use.
    let endpoints: Subscription[];
    if (target.dashboard) endpoints = target.cfg.webhookEndpoints.map((e) => target.endpoint(e));
    else {
      const sub = await target.subscribe({ events: [...TRIGGERABLE_EVENTS], form: 'both' });
      if (typeof sub === 'string') throw new Error(sub);
      endpoints = [sub];
    }
    try {
      // The other workspace creates a ticket, replies to it as agent and customer, closes it.
      const other = await otherWorkspaceActions(api, tag, target);
      if (typeof other === 'string') throw new Error(other);
      need(other.id, 'the other workspace created a ticket').not.toBe(MISSING_ID);
      // Then a ticket of this workspace: once its delivery arrived, the other workspace's events,
      // sent as they happened, have had their chance to arrive too (and a settle on top).
      const mine = idOf(
        await createTicket(api, tag, 'webhook isolation: this workspace', { requester: CUSTOMER }),
      );
      await Promise.all(
        endpoints
          .filter((sub) => sub.events.includes('ticket.created'))
          .map((sub) => waitDeliveries(sub, (ds) => ds.some((d) => ticketIdOf(d) === mine))),
      );
      await settleDeliveries(target, 1000);
      await judge(endpoints, other.id, exchanges);
    } finally {
      for (const sub of endpoints) await unsubscribe(target, sub);
    }
  });
});
