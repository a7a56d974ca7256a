/**
 * Input as people type it, deterministic: a subject and a customer name from every Unicode plane
 * (emoji, CJK, RTL, combining marks, control characters…), a lone surrogate, subjects of 1 000
 * and 10 000 characters, a message of 64 KiB, tags lists short and long, the list's `limit` at the
 * edges of its type. The documented rule every one of them is held to: a client's input never gets
 * a 5xx (exchange.no-5xx, judged on every exchange). Where the target accepts the text, it reads
 * back character for character (ticket.subject-echoed, ticket.requester-echoed: documented) in
 * the creation's answer and in a GET. The statuses we assume (201 for a valid body, 422 past a
 * U26 or U4 limit) are judged only when the answer is not a 5xx, so a 500 fails exactly one check.
 * The fuzz (fuzz/api-input/) sends the same samples (core/typed-text.ts) by its class sampler,
 * and more at random.
 */
import { test } from './fixtures.ts';
import { need } from './need.ts';
import {
  idOf,
  limitIgnored,
  observeCrossCutting,
  requester,
  skipIfReadOnly,
  type Tag,
} from './helpers.ts';
import type { ApiClient } from '../core/http/api-client.ts';
import { TEXT_SAMPLES } from '../core/typed-text.ts';
import { hasLoneSurrogate } from '../core/unicode.ts';
import type { Verdict } from '../core/checks/verdict.ts';
import type { Answer } from '../core/http/client.ts';

test.afterEach(({ exchanges, probe }) => observeCrossCutting(exchanges, probe));
test.beforeEach(({ target }) => skipIfReadOnly(target, test.skip));

const is2xx = (ex: Answer) => ex.status !== undefined && ex.status >= 200 && ex.status < 300;
const isAnswered = (ex: Answer) => ex.status !== undefined && ex.status < 500;

/**
 * Text of each kind people type, as subject and as the customer's name (the lone surrogates have
 * a test of their own: how they read back is not judged).
 */
const TEXTS = TEXT_SAMPLES.filter((t) => !hasLoneSurrogate(t.text));

/** A subject of exactly `n` code points, tagged as the run's (shared staging). */
const subjectOf = (tag: { subject: (s: string) => string }, n: number) => {
  const prefix = tag.subject('');
  return prefix + 'a'.repeat(Math.max(0, n - [...prefix].length));
};

async function create(api: ApiClient, body: unknown, raw?: Buffer): Promise<Answer> {
  return raw ? api.send('POST', '/v1/tickets', { raw }) : api.send('POST', '/v1/tickets', { body });
}

/** An accepted creation reads back as sent: in its answer, and in a GET of the ticket. */
async function readsBack(
  api: ApiClient,
  verdict: Verdict,
  ex: Answer,
  sent: { subject: string; requester?: { email: string; name?: string } },
  /** The GET already sent, if any. */
  read?: Answer,
) {
  if (!is2xx(ex)) return;
  const get = read ?? (await api.send('GET', `/v1/tickets/${encodeURIComponent(idOf(ex))}`));
  for (const answer of [ex, get]) {
    verdict.check('ticket.subject-echoed', answer, { sent: sent.subject });
    if (sent.requester) verdict.check('ticket.requester-echoed', answer, { sent: sent.requester });
  }
}

/** Where the kinds meet in the packed subject and name: a separator none of them holds. */
const JOIN = ' | ';

/** The subject and name one creation sends, tagged as the run's (shared staging). */
const bodyOf = (tag: Tag, subject: string, customer: string) => ({
  subject: tag.subject(subject),
  requester: { email: 'zoe@example.com', name: customer },
  tags: tag.tags,
});

/**
 * True when a creation and its read-back hold every rule the kinds are judged by: accepted (which
 * 2xx is the assumed tickets.status-code's, not the kinds'), and the subject and name back as
 * sent. Only the packed screen asks; what is judged is the checks'.
 */
function clean(ex: Answer, get: Answer | undefined, sent: ReturnType<typeof bodyOf>): boolean {
  if (!is2xx(ex) || !get || !is2xx(get)) return false;
  return [ex, get].every((a) => {
    const b = a.json as { subject?: unknown; requester?: { name?: unknown } } | undefined;
    return b?.subject === sent.subject && b?.requester?.name === sent.requester.name;
  });
}

/** One kind of text, judged: no 5xx (every exchange), a 201, and it reads back as sent. */
async function judgeKind(
  api: ApiClient,
  verdict: Verdict,
  ex: Answer,
  sent: ReturnType<typeof bodyOf>,
  what: string,
  read?: Answer,
): Promise<boolean> {
  const before = verdict.failures().length;
  // A valid body: refusing it is ours to report (U26 sets no character limit), not a 5xx.
  if (isAnswered(ex)) verdict.check('tickets.status-code', ex, { expected: [201], what });
  await readsBack(api, verdict, ex, sent, read);
  return isAnswered(ex) && verdict.failures().length === before;
}

test.describe('text as people type it', () => {
  // Every kind in one ticket (the subject stays within U26's 255 with the run tag): a deployment
  // that keeps them all costs one creation and one read. Only on doubt — a non-2xx or a text
  // that differs — is each kind sent alone, so the failure names the kind that breaks.
  test('every kind of text people type, in one subject and name: no 5xx; accepted, it reads back character for character', {
    tag: ['@exchange.no-5xx', '@ticket.subject-echoed', '@ticket.requester-echoed'],
  }, async ({ api, verdict, tag }) => {
    const sent = bodyOf(
      tag,
      TEXTS.map((t) => t.text).join(JOIN),
      TEXTS.map((t) => t.text).join(JOIN),
    );
    const ex = await create(api, sent);
    need(ex.response, 'the target answered').toBeDefined();
    const get = is2xx(ex)
      ? await api.send('GET', `/v1/tickets/${encodeURIComponent(idOf(ex))}`)
      : undefined;
    if (clean(ex, get, sent)) {
      const every = `a subject of ${TEXTS.map((t) => t.note).join('; ')}`;
      await judgeKind(api, verdict, ex, sent, every, get);
      return;
    }
    for (const t of TEXTS) {
      await test.step(`alone: ${t.note}`, async () => {
        const alone = bodyOf(tag, t.text, t.text);
        const one = await create(api, alone);
        // The failures say what was received; the kind's name goes beside them (a 5xx is
        // exchange.no-5xx's, judged on every exchange, which takes no name of its own).
        if (!(await judgeKind(api, verdict, one, alone, `a subject of ${t.note}`)))
          test.info().annotations.push({ type: 'text kind failing alone', description: t.note });
      });
    }
  });

  test('a lone surrogate (\\ud800, valid JSON, not Unicode): any 2xx or 4xx, never a 5xx', {
    tag: ['@exchange.no-5xx'],
  }, async ({ api, verdict, tag }) => {
    // Written as JSON text: the escape must reach the target as is (RFC 8259 §8.2 leaves its
    // meaning open, so keeping it, replacing it with U+FFFD or refusing it are all right).
    const json = JSON.stringify({
      subject: tag.subject('lone SURROGATE'),
      requester,
      tags: tag.tags,
    });
    const raw = Buffer.from(json.replace('SURROGATE', '\\ud800 and \\udfff'), 'utf8');
    const ex = await create(api, undefined, raw);
    if (isAnswered(ex) && !is2xx(ex)) verdict.check('validation.problem-body', ex);
    need(ex.response, 'the target answered').toBeDefined();
  });
});

test.describe('lengths across every boundary', () => {
  for (const n of [1000, 10_000]) {
    test(`a subject of ${n} characters: no 5xx; refused as over 255 (U26), or kept whole`, {
      tag: ['@exchange.no-5xx', '@ticket.subject-echoed'],
    }, async ({ api, verdict, tag }) => {
      const sent = { subject: subjectOf(tag, n), requester, tags: tag.tags };
      const ex = await create(api, sent);
      if (isAnswered(ex) && !is2xx(ex)) {
        verdict.check('validation.status-422', ex, { what: `a ${n}-character subject` });
        verdict.check('validation.problem-body', ex);
      }
      // A deployment without the limit keeps the subject: all of it.
      await readsBack(api, verdict, ex, sent);
      need(ex.response, 'the target answered').toBeDefined();
    });
  }

  test('a first message of 64 KiB (65 536 characters) is accepted, one more is refused (U26)', {
    tag: ['@exchange.no-5xx'],
  }, async ({ api, verdict, tag }) => {
    const base = { subject: tag.subject('a 64 KiB message'), requester, tags: tag.tags };
    const at = await create(api, { ...base, message: '😀'.repeat(65_536) });
    const over = await create(api, { ...base, message: 'a'.repeat(65_537) });
    if (isAnswered(at))
      verdict.check('tickets.status-code', at, {
        expected: [201],
        what: 'a 65 536-character message',
      });
    if (isAnswered(over)) {
      verdict.check('validation.status-422', over, { what: 'a 65 537-character message' });
      verdict.check('validation.problem-body', over);
    }
    need(at.response, 'the target answered').toBeDefined();
  });
});

test.describe('tags lists long and short', () => {
  const tagsOf = (run: string[], n: number) => [
    ...run,
    ...Array.from({ length: Math.max(0, n - run.length) }, (_, i) => `tag-${i}`),
  ];

  test('no tags, one, 50 (U26: the most) accepted; no 5xx', {
    tag: ['@exchange.no-5xx'],
  }, async ({ api, verdict, tag }) => {
    for (const tags of [[], tag.tags.slice(0, 1), tagsOf(tag.tags, 50)]) {
      const ex = await create(api, {
        subject: tag.subject(`${tags.length} tags`),
        requester,
        tags,
      });
      if (isAnswered(ex))
        verdict.check('tickets.status-code', ex, {
          expected: [201],
          what: `a creation with ${tags.length} tags`,
        });
      need(ex.response, 'the target answered').toBeDefined();
    }
  });

  test('51 and 1 000 tags: refused (U26), never a 5xx', {
    tag: ['@exchange.no-5xx'],
  }, async ({ api, verdict, tag }) => {
    for (const n of [51, 1000]) {
      const ex = await create(api, {
        subject: tag.subject(`${n} tags`),
        requester,
        tags: tagsOf(tag.tags, n),
      });
      if (isAnswered(ex)) {
        verdict.check('validation.status-422', ex, { what: `a creation with ${n} tags` });
        verdict.check('validation.problem-body', ex);
      }
      need(ex.response, 'the target answered').toBeDefined();
    }
  });
});

test.describe('numbers at the edges of their type', () => {
  test('the list’s limit past 32 and 53 bits, as a float, −0, 1.5: no 5xx; refused (U4)', {
    tag: ['@exchange.no-5xx'],
  }, async ({ api, verdict, target }) => {
    // A limit the list ignores is read by nobody: five reads of the whole workspace for nothing.
    const ignored = limitIgnored(target);
    test.skip(ignored !== undefined, ignored);
    for (const limit of ['2147483648', '9007199254740993', '1e309', '-0', '1.5']) {
      const ex = await api.send('GET', '/v1/tickets', { query: { limit } });
      if (isAnswered(ex)) {
        verdict.check('validation.status-422', ex, { what: `limit=${limit}` });
        verdict.check('validation.problem-body', ex);
      }
      need(ex.response, 'the target answered').toBeDefined();
    }
  });
});
