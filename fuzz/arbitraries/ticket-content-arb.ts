/**
 * Schema-valid ticket content made of hostile text: what the delivery check feeds the API so that
 * every webhook it triggers carries bytes a careless signer or receiver would mangle.
 */
import fc from 'fast-check';
import { hostileTextArb, htmlMessageArb, nfcNfdTextPairArb } from './hostile-text-arb.ts';

const lower = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');

/** Addresses every common `email` format validator accepts (the content is not the point here). */
export const plainEmailArb = () =>
  fc
    .tuple(
      fc.string({ unit: lower, minLength: 1, maxLength: 10 }),
      fc.option(
        fc.tuple(fc.constantFrom('.', '+', '-', '_'), fc.string({ unit: lower, minLength: 1 })),
      ),
      fc.string({ unit: lower, minLength: 1, maxLength: 10 }),
      fc.constantFrom('example', 'example.org', 'mail.example'),
      fc.constantFrom('com', 'net', 'io'),
    )
    .map(
      ([a, extra, host, zone, tld]) => `${a}${extra ? extra.join('') : ''}@${host}.${zone}.${tld}`,
    );

/** A subject: hostile text, one side of an NFC/NFD pair, or HTML. 1–255 code points. */
export const subjectArb = () =>
  fc.oneof(
    { arbitrary: hostileTextArb({ minLength: 1, maxLength: 255 }), weight: 4 },
    {
      arbitrary: nfcNfdTextPairArb().chain(({ nfc, nfd }) => fc.constantFrom(nfc, nfd)),
      weight: 2,
    },
    { arbitrary: htmlMessageArb(), weight: 1 },
  );

/** A person's name: emoji, RTL, combining marks, quotes. */
export const personNameArb = () =>
  fc.oneof(
    hostileTextArb({ minLength: 1, maxLength: 60 }),
    fc.constantFrom(
      'Zoë Ångström',
      'José 😀',
      'محمد',
      'דוד "Dudu" כהן',
      '山田 太郎',
      'O\'Brien \\ "x"',
    ),
  );

/** A message body: HTML, hostile text, or both. 1+ code points. */
export const messageBodyArb = () =>
  fc.oneof(
    htmlMessageArb(),
    hostileTextArb({ minLength: 1, maxLength: 200 }),
    fc.tuple(htmlMessageArb(), hostileTextArb({ maxLength: 40 })).map(([h, t]) => `${t}\n${h}`),
  );

export interface TicketContent {
  subject: string;
  requester: { email: string; name?: string };
  /** First message of the ticket, sent with the creation. */
  message?: string;
  priority?: 'low' | 'normal' | 'high';
  customerReply: string;
  agentReply: string;
}

/** Everything one scenario (create, customer reply, agent reply, close) sends. */
export const ticketContentArb = (): fc.Arbitrary<TicketContent> =>
  fc.record(
    {
      subject: subjectArb(),
      requester: fc.record(
        { email: plainEmailArb(), name: personNameArb() },
        { requiredKeys: ['email'] },
      ),
      message: messageBodyArb(),
      priority: fc.constantFrom('low' as const, 'normal' as const, 'high' as const),
      customerReply: messageBodyArb(),
      agentReply: messageBodyArb(),
    },
    { requiredKeys: ['subject', 'requester', 'customerReply', 'agentReply'] },
  );
