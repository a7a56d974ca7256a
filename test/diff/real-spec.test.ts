/**
 * The project's own spec, edited in memory the way a careless PR would: one response field
 * dropped from Ticket and one required field added to the ticket-creation input. Both must be
 * ERR, and the untouched spec must diff clean against itself.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { diffSpecs, loadSpec, type SpecDoc } from '../../compat/diff/index.ts';

const specPath = new URL('../../spec/openapi.yaml', import.meta.url).pathname;
const skip = existsSync(specPath) ? false : 'spec/openapi.yaml is not there yet';

type Obj = Record<string, any>;

function schemas(doc: SpecDoc): Obj {
  const s = (doc.components as Obj | undefined)?.schemas as Obj | undefined;
  assert.ok(s, 'spec has no components.schemas');
  return s;
}

test('the spec diffs clean against itself', { skip }, () => {
  assert.deepEqual(diffSpecs(loadSpec(specPath), loadSpec(specPath)), []);
});

test('a removed Ticket response field and a new required creation field are both ERR', {
  skip,
}, () => {
  const oldDoc = loadSpec(specPath);
  const newDoc = structuredClone(oldDoc);
  const ticket = schemas(newDoc).Ticket as Obj;
  const create = schemas(newDoc).TicketCreate as Obj;
  assert.ok(ticket?.properties, 'Ticket schema with properties expected in the spec');
  assert.ok(create?.properties, 'TicketCreate schema with properties expected in the spec');

  // A required field clients can rely on; `id` stays so the example reads like a real PR.
  const removed = (ticket.required as string[]).find((k) => k !== 'id' && k in ticket.properties);
  assert.ok(removed, 'Ticket has no required property besides id');
  delete ticket.properties[removed];
  ticket.required = (ticket.required as string[]).filter((k) => k !== removed);
  create.properties.channel = { type: 'string', enum: ['email', 'web'] };
  create.required = [...((create.required as string[] | undefined) ?? []), 'channel'];

  const findings = diffSpecs(oldDoc, newDoc);
  const gone = findings.find(
    (f) =>
      f.rule === 'response-property-removed' &&
      f.old === `/components/schemas/Ticket/properties/${removed}`,
  );
  assert.ok(gone, `no response-property-removed for Ticket.${removed}`);
  assert.equal(gone.level, 'ERR');
  assert.ok(
    gone.where.some((w) => w.startsWith('POST /v1/tickets')),
    gone.where.join('; '),
  );
  const added = findings.find(
    (f) =>
      f.rule === 'request-required-property-added' &&
      f.new === '/components/schemas/TicketCreate/properties/channel',
  );
  assert.ok(added, 'no request-required-property-added for TicketCreate.channel');
  assert.equal(added.level, 'ERR');
  // Nothing else in the spec changed, so every finding traces back to one of the two edits.
  for (const f of findings)
    assert.ok(
      f.old?.startsWith('/components/schemas/Ticket') ||
        f.new?.startsWith('/components/schemas/TicketCreate'),
      `unexpected finding ${f.rule} ${f.old} → ${f.new}`,
    );
});
