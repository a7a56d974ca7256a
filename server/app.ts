/**
 * `buildService(opts)`: the reference deployment as a Fastify app, not listening. `start.ts`
 * binds it to loopback; tests can also `app.inject()` without a socket.
 */
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAdminRoutes } from './admin.ts';
import { ServiceClock } from './clock.ts';
import type { ServiceContext } from './context.ts';
import { FaultSet } from './faults.ts';
import { installGuard } from './guard.ts';
import { installListFaults } from './list-faults.ts';
import { ANONYMOUS_LIMIT, limiterFor } from './plans.ts';
import { sendProblem } from './problem.ts';
import { behaviourOf, selectReadings } from './readings/index.ts';
import { drainRefusedBody } from './refused-body.ts';
import type { LimitConfig } from './rate-limit/types.ts';
import { registerApiRoutes } from './routes/index.ts';
import { type Credentials, seed } from './seed.ts';
import { type SeededTickets, seedTickets } from './seed-tickets.ts';
import { runSlaSweep } from './sla-sweep.ts';
import { Store } from './store.ts';
import {
  answerClientError,
  answerExpectation,
  answerFrameworkError,
  newRequestId,
} from './transport-errors.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';

export interface ServiceOptions {
  /** Fault names from the catalogue (server/faults.ts). Default: none — the correct deployment. */
  faults?: Iterable<string>;
  /** Service seconds per real second, for minute-long behaviour in seconds. Default 1. */
  timeScale?: number;
  /** Real time source (tests). Default `Date.now`. */
  clockSource?: () => number;
  /** Token of the admin surface. Default: random. */
  adminToken?: string;
  /** Limits of the seeded Enterprise workspace. Default 300/min, burst 450. */
  enterprise?: LimitConfig;
  /** Per-address bucket for requests without a valid key. Default 600/min, burst 1000. */
  anonymousLimit?: LimitConfig;
  /** Webhook retry schedule (base delays, ms). Default: the dispatcher's (1 s … 10 min). */
  webhookRetryDelaysMs?: number[];
  /** Webhook attempt timeout, ms. Default 10 000. */
  webhookTimeoutMs?: number;
  /** PEM certificates trusted for HTTPS webhook deliveries. */
  trustedCa?: string[];
  /** Real ms between SLA sweeps. Default 250. */
  slaSweepMs?: number;
  /** Request body limit in bytes. Default 1 MiB (U26); none in practice under `U26=no-limits`. */
  bodyLimit?: number;
  /**
   * Readings of the docs' gaps other than our assumptions (server/readings/: `U9=customer-note-is-reply`,
   * or `other` for all at once). Default none: every gap answered as docs/assumptions.md assumes.
   */
  readings?: Iterable<string>;
  /**
   * A long-lived deployment: this many old tickets in every seeded workspace, of every status and
   * odd content (server/seed-tickets.ts), deterministic for `seedTicketsSeed`. Default 0.
   */
  seedTickets?: number;
  /** Seed of the generated tickets' content. Default 1. */
  seedTicketsSeed?: number;
  /** false = dashboard mode: no /admin surface at all, as on a real deployment. Default true. */
  admin?: boolean;
  /** Fastify logger. Default off. */
  logger?: boolean;
}

export interface BuiltService {
  app: FastifyInstance;
  ctx: ServiceContext;
  credentials: Credentials;
  /** What `seedTickets` wrote, if asked. */
  seeded?: SeededTickets;
}

const ERROR_CODES: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    'unsupported_media_type',
    'Send the body as application/json.',
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large', 'The body exceeds the 1 MiB limit.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'malformed_json', 'The body is empty but declared as JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    400,
    'bad_request',
    'Content-Length does not match the body.',
  ],
};

/** Deprecated since 2026-01-01 (RFC 9745's structured date), gone after its Sunset (RFC 8594). */
const DEPRECATION = { deprecation: '@1767225600', sunset: 'Thu, 01 Jul 2027 00:00:00 GMT' };

export function buildService(opts: ServiceOptions = {}): BuiltService {
  const faults = new FaultSet(opts.faults ?? []);
  const behaviour = behaviourOf(selectReadings(opts.readings ?? []));
  const clock = new ServiceClock({ scale: opts.timeScale, source: opts.clockSource });
  const store = new Store();
  const adminToken = opts.adminToken ?? `adm_${randomBytes(24).toString('base64url')}`;
  const credentials = seed(store, adminToken, opts.enterprise);
  const seeded = opts.seedTickets
    ? seedTickets(store, credentials, {
        perWorkspace: opts.seedTickets,
        seed: opts.seedTicketsSeed ?? 1,
        nowMs: clock.now(),
      })
    : undefined;
  const trustedCa = [...(opts.trustedCa ?? [])];
  const dashboardBaseUrl = 'https://dashboard.support-ticketing.example';
  const dispatcher = new WebhookDispatcher({
    now: () => clock.now(),
    retryDelaysMs: opts.webhookRetryDelaysMs,
    timeoutMs: opts.webhookTimeoutMs,
    trustedCa,
    dashboardBaseUrl,
    behaviour,
    faults: {
      signatureReserialized: faults.has('signature-reserialized'),
      signatureWrongSecret: faults.has('signature-wrong-secret'),
      signatureUppercase: faults.has('signature-uppercase'),
      prefixMissing: faults.has('signature-prefix-missing'),
      unsubscribedDelivered: faults.has('unsubscribed-event-delivered'),
      chosenPerWorkspace: faults.has('events-chosen-per-workspace'),
      contentTypeText: faults.has('webhook-content-type-text'),
      crossWorkspace: faults.has('deliveries-cross-workspace'),
      bodyLatin1: faults.has('webhook-body-latin1'),
      sentTwice: faults.has('deliveries-sent-twice'),
      httpsLost: faults.has('https-deliveries-lost'),
    },
  });
  const ctx: ServiceContext = {
    store,
    clock,
    faults,
    limiter: limiterFor(behaviour.limiter, faults),
    anonymousLimit: opts.anonymousLimit ?? ANONYMOUS_LIMIT,
    dispatcher,
    trustedCa,
    adminToken,
    dashboardBaseUrl,
    behaviour,
  };

  const app = Fastify({
    logger: opts.logger ?? false,
    // Without our 1 MiB limit (U26) there is none in practice: 1 GiB keeps a loopback test alive.
    bodyLimit: opts.bodyLimit ?? (behaviour.sizeLimits ? 1024 * 1024 : 1024 * 1024 * 1024),
    genReqId: newRequestId,
    // Never answer 5xx for a malformed request line or header: keep Node's 400 handling.
    return503OnClosing: false,
    // Ids are bounded by Node's 16 KiB header limit anyway; a too long one is an unknown id (404).
    routerOptions: { maxParamLength: 16 * 1024 },
    clientErrorHandler: (err, socket) => answerClientError(ctx, err, socket),
    frameworkErrors: (err, req, reply) => answerFrameworkError(err, req, reply),
    // Node would answer a missing Host with a bare 400 of its own; the guard answers it instead.
    http: { requireHostHeader: false },
  });
  app.decorate('svc', ctx);
  app.server.on('checkExpectation', (req, res) => answerExpectation(ctx, req, res));

  // The API is JSON only (docs: "All API traffic is JSON"); Fastify's text/plain parser would
  // hand a string to the validators and turn a wrong media type into a 422.
  app.removeContentTypeParser('text/plain');
  // RFC 7396 merge patches are JSON documents: parse them with the same parser.
  app.addContentTypeParser(
    'application/merge-patch+json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  installGuard(app);
  // U27=deprecation-headers: every answer of the API announces that v1 is deprecated, and when it goes.
  if (behaviour.deprecationHeaders)
    app.addHook('onSend', async (req, reply, payload) => {
      if (!req.routeOptions.url?.startsWith('/admin')) reply.headers(DEPRECATION);
      return payload;
    });
  installListFaults(app);
  registerApiRoutes(app);
  if (opts.admin !== false) registerAdminRoutes(app);

  app.setNotFoundHandler((req, reply) =>
    sendProblem(reply, 404, 'not_found', `No route ${req.method} ${req.url.split('?')[0]}.`),
  );

  app.setErrorHandler((err, req, reply) => {
    const e = err as { code?: string; statusCode?: number; message?: string };
    const mapped = e.code ? ERROR_CODES[e.code] : undefined;
    if (mapped) {
      if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') drainRefusedBody(req, reply);
      const status =
        e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? behaviour.wrongMediaTypeStatus
          : e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && faults.has('body-too-large-400')
            ? 400
            : mapped[0];
      return sendProblem(reply, status, mapped[1], mapped[2]);
    }
    if (e.statusCode === 400 || e instanceof SyntaxError) {
      return sendProblem(
        reply,
        behaviour.malformedJsonStatus,
        'malformed_json',
        'The body is not valid JSON.',
      );
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return sendProblem(reply, e.statusCode, 'bad_request', e.message ?? 'Bad request.');
    }
    // A 5xx here is a bug of the reference deployment (or the missing-requester-500 fault).
    req.log.error(err);
    return sendProblem(reply, 500, 'internal_error', 'Internal error.');
  });

  const sweep = setInterval(() => runSlaSweep(ctx), opts.slaSweepMs ?? 250);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await dispatcher.close();
  });

  return { app, ctx, credentials, ...(seeded ? { seeded } : {}) };
}
