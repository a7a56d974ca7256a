/**
 * index.html: one self-contained page rendered from summary.json (and the snapshot): verdict per
 * area, failures with their repro, the gaps table (assumption vs observed), plan-limit charts as
 * inline SVG, fuzz statistics, compatibility findings. No scripts, no external assets.
 */
import { FAILURE_WORDS } from '../core/checks/failure.ts';
import type { Failure } from '../core/checks/types.ts';
import {
  type CompatibilityReport,
  notesText,
  valueText,
  whereText,
} from '../core/compatibility.ts';
import { verdictCell } from './console.ts';
import { redact } from '../core/redact.ts';
import { boundedFailure, boundedJson } from '../core/shown.ts';
import { type LoadView, loadGaps } from './load-gaps.ts';
import type { MatrixCell, RuleMatrix } from './rule-matrix.ts';
import type { LeftOut } from './rule-coverage.ts';
import type { BehaviourSnapshot } from '../core/snapshot/types.ts';
import { type Summary, targetLines } from './summary.ts';

/** Text as HTML (the run escapes its chart fallback with it too). */
export const esc = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** docs/assumptions.md: the assumption of each gap, for the gaps table. */
export const GAP_ASSUMPTIONS: Record<string, string> = {
  U1: 'open, pending, on_hold, closed; a customer reply re-opens pending',
  U2: 'default priority normal',
  U3: 'email required, name optional',
  U4: '{data, has_more, next_cursor}; limit 1–100 (default 25); Link rel="next"',
  U5: 'POST /v1/tickets → 201 + Location',
  U6: 'PATCH /v1/tickets/{id} (merge patch) → 200',
  U7: 'POST /v1/tickets/{id}/close → 200, idempotent',
  U8: 'GET /v1/tickets/{id}',
  U9: 'POST /v1/tickets/{id}/messages → 201',
  U10: 'contacts CRUD, macros list + apply, rules list/create, reports summary',
  U12: 'ticket.status_changed, agent.replied, ticket.note_added, macro.applied',
  U13: 'same envelope {event, ticket, customer} plus extras',
  U14: 'retry on timeout/5xx/408/429 with backoff, stable delivery id',
  U15: 'per endpoint: prefixed, plain or both',
  U16: 'RFC 9457 problem+json',
  U17: '401 + WWW-Authenticate: Bearer',
  U18: '401',
  U19: '403 insufficient_scope',
  U20: '422 (400 for malformed JSON)',
  U21: '404, identical for another workspace',
  U22: '429 + Retry-After, Remaining 0',
  U23: 'Reset in epoch seconds',
  U24: 'token bucket (capacity burst, refill rate/60 per s)',
  U25: 'one bucket per key',
  U26: 'subject ≤ 255, body ≤ 1 MiB → 413, page ≤ 100',
  U27: 'Deprecation / Sunset headers when used',
  SLA: 'high 1 h, normal 4 h, low 24 h',
};

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:16px 24px}header h1{margin:0;font-size:20px}
main{max-width:1200px;margin:0 auto;padding:16px 24px}section{background:#fff;border:1px solid #d0d7de;border-radius:8px;margin:16px 0;padding:12px 18px}
h2{font-size:17px;margin:4px 0 10px}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #eaeef2;vertical-align:top}
th{background:#f6f8fa}.pass{color:#1a7f37;font-weight:600}.fail{color:#cf222e;font-weight:600}.warn{color:#9a6700;font-weight:600}.not-run{color:#57606a;font-weight:600}.partial{color:#9a6700;font-weight:600}.error{color:#cf222e;font-weight:600}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;padding:8px;border-radius:6px;font-size:12px;margin:4px 0}
.failure{border-left:4px solid #cf222e;padding:4px 10px;margin:10px 0}.failure.assumed{border-color:#bf8700}.failure.observed{border-color:#8250df}
.charts{display:flex;flex-wrap:wrap;gap:12px}.charts svg{max-width:100%;height:auto;border:1px solid #eaeef2}
small{color:#57606a}code{font-size:12px}
td,th{overflow-wrap:break-word}td code{overflow-wrap:anywhere}.scroll{overflow-x:auto}.nowrap{white-space:nowrap}
nav{display:flex;flex-wrap:wrap;gap:4px 14px;margin-top:8px}nav a{color:#c9d1d9}
.lvl-ERR{color:#cf222e;font-weight:600}.lvl-WARN{color:#9a6700;font-weight:600}.lvl-INFO{color:#57606a}
details summary{cursor:pointer;margin:6px 0}
table.matrix{width:auto;font-size:12px}table.matrix td,table.matrix th{padding:3px 5px;text-align:center;white-space:nowrap}table.matrix th.rule,table.matrix td.rule{text-align:left}
table.matrix th.col{writing-mode:vertical-rl;transform:rotate(180deg);vertical-align:bottom;font-weight:500}table.matrix .na{color:#8c959f}`;

/** Where an embedded run's repros replay, said once above them (report/replay.ts). */
function replayNote(s: Summary, failures: Failure[]): string {
  if (!s.replay || !failures.some((f) => f.repro)) return '';
  return `<div class="replay"><p><small>${esc(s.replay.about)}</small></p><pre>${esc(s.replay.start)}\n${esc(s.replay.load)}</pre></div>\n`;
}

function failureBlock(failure: Failure): string {
  const f = boundedFailure(failure);
  const { label } = FAILURE_WORDS[f.provenance];
  return `<div class="failure ${f.provenance}"><b>${esc(f.check)}</b> <small>${esc(f.rule)}</small>
<div>Received: <code>${esc(f.received)}</code></div><div>${label}: <code>${esc(f.expected)}</code></div>${f.repro ? `<pre>${esc(f.repro)}</pre>` : ''}</div>`;
}

/** What the page shows beside the summary and the snapshot, made by the run (run/write-reports.ts). */
export interface HtmlExtras {
  /** The run against the committed baseline; default `summary.compatibility`. */
  compatibility?: CompatibilityReport;
  /** One inline SVG chart per plan of the load area, in its order (load/chart-svg.ts). */
  charts?: readonly string[];
}

/** The page. */
/** What the page reads of the API input fuzz's result (fuzz/api-input/api-input.ts), as data. */
interface InputClassView {
  seed?: number;
  operations?: Array<{
    operation: string;
    status: string;
    cases: number;
    sampled?: number;
    classes?: Array<{ name: string; family: string; what: string; cases: number }>;
  }>;
}

/**
 * The API input fuzz's input classes: one row per class, one column per operation, each cell the
 * number of cases that carried it — "n/a" where the class has no place in the operation, a 0
 * marked, so a class that was never sent cannot be missed.
 */
function inputClassesTable(details: unknown): string {
  const input = (details as { input?: InputClassView } | undefined)?.input;
  const ops = input?.operations ?? [];
  if (ops.length === 0) return '';
  const rows = new Map<string, { family: string; what: string }>();
  for (const o of ops) for (const c of o.classes ?? []) rows.set(c.name, c);
  const cell = (o: (typeof ops)[number], name: string) => {
    const c = o.classes?.find((x) => x.name === name);
    if (!c) return '<td><small>n/a</small></td>';
    return c.cases === 0 ? '<td class="fail">0</td>' : `<td>${c.cases}</td>`;
  };
  return `<h3>API input fuzz: input classes</h3><p><small>Cases that carried each class of input, read from what was sent (a case may carry several); each class is sent at least once by the class sampler before the random cases (seed ${esc(input?.seed ?? '?')}). ${ops.map((o) => `${esc(o.operation)}: ${o.cases} cases, ${o.sampled ?? 0} from the sampler, ${esc(o.status)}`).join(' · ')}.</small></p>
<div class="scroll"><table><tr><th>family</th><th>class</th><th>what</th>${ops.map((o) => `<th>${esc(o.operation)}</th>`).join('')}</tr>${[
    ...rows,
  ]
    .map(
      ([name, c]) =>
        `<tr><td>${esc(c.family)}</td><td>${esc(name)}</td><td><small>${esc(c.what)}</small></td>${ops.map((o) => cell(o, name)).join('')}</tr>`,
    )
    .join('\n')}</table></div>`;
}

export function renderHtml(s: Summary, snap?: BehaviourSnapshot, extras: HtmlExtras = {}): string {
  const { compatibility, charts: svgs = [] } = extras;
  const areas = Object.entries(s.areas)
    .map(
      ([n, a]) =>
        `<tr><td class="nowrap">${esc(n)}</td><td class="${verdictCell(a) === a.level ? `lvl-${a.level}` : a.verdict} nowrap">${esc(verdictCell(a))}</td><td>${a.documentedFailures.length}</td><td>${a.assumptionMismatches.length}</td><td>${a.notRun.length}</td><td>${esc(a.headline)}</td></tr>`,
    )
    .join('\n');
  const documented = Object.values(s.areas).flatMap((a) => a.documentedFailures);
  const assumed = Object.values(s.areas).flatMap((a) => a.assumptionMismatches);
  const notRun = Object.entries(s.areas).flatMap(([area, a]) =>
    a.notRun.map((n) => ({ area, ...n })),
  );

  const loadResults = (s.areas.load?.details as LoadView[] | undefined) ?? [];
  // What the load area measured fills the rate-limit gaps beside what the contract probes saw.
  const fromLoad = loadGaps(Array.isArray(loadResults) ? loadResults : []);
  const extraGaps = Object.keys(snap?.gaps ?? {}).filter((g) => !(g in GAP_ASSUMPTIONS));
  const gapRows = [...Object.keys(GAP_ASSUMPTIONS), ...extraGaps]
    .map((gap) => {
      const labels = snap?.gapLabels?.[gap] ?? {};
      const probed = snap?.gaps[gap] ?? operationGap(gap, snap);
      const rows = [
        ...Object.entries(probed ?? {}).map(([id, v]) => [labels[id] ?? id, boundedJson(v, 500)]),
        ...Object.entries(fromLoad[gap] ?? {}),
      ];
      const observed = rows.length
        ? rows.map(([k, v]) => `<div>${esc(k)}: <code>${esc(v)}</code></div>`).join('')
        : '<small>not observed in this run</small>';
      return `<tr><td>${esc(gap)}</td><td>${esc(GAP_ASSUMPTIONS[gap] ?? '—')}</td><td>${observed}</td></tr>`;
    })
    .join('\n');

  const charts =
    Array.isArray(loadResults) && loadResults.length
      ? `<div class="charts">${svgs.join('\n')}</div>
<table><tr><th>plan</th><th>B̂</th><th>r̂ (/min)</th><th>algorithm</th><th>Reset unit</th><th>scope</th></tr>
${loadResults
  .map(
    (r) =>
      `<tr><td>${esc(r.plan)}</td><td>${r.estimates.burst?.value != null ? `${r.estimates.burst.value.toFixed(1)} ± ${r.estimates.burst.uncertainty.toFixed(1)}` : 'n/a'} <small>(plan ${r.limits.burst})</small></td><td>${Number.isFinite(r.estimates.rate.perMin) ? r.estimates.rate.perMin.toFixed(1) : 'n/a'} <small>(plan ${r.limits.ratePerMin})</small></td><td>${esc(r.limiter.algorithm)}</td><td>${esc(r.resetUnit.unit)}</td><td>${esc(r.scope.scope)}</td></tr>`,
  )
  .join('\n')}</table>`
      : `<p><small>${esc(s.areas.load?.headline ?? 'no plan-limit run in this summary')}</small></p>`;

  const fuzz = s.areas.fuzz;
  const fuzzDetails = (
    fuzz?.details as
      | {
          receiver?: {
            properties: Array<{
              name: string;
              form: string | null;
              status: string;
              cases: number;
              requests: number;
            }>;
            seed: number;
          };
        }
      | undefined
  )?.receiver;
  const fuzzTable = fuzzDetails
    ? `<p>seed ${fuzzDetails.seed}</p><table><tr><th>property</th><th>form</th><th>status</th><th>cases</th><th>requests</th></tr>${fuzzDetails.properties
        .map(
          (p) =>
            `<tr><td>${esc(p.name)}</td><td>${esc(p.form ?? 'both')}</td><td class="${p.status === 'passed' ? 'pass' : p.status === 'failed' ? 'fail' : 'not-run'}">${esc(p.status)}</td><td>${p.cases}</td><td>${p.requests}</td></tr>`,
        )
        .join('\n')}</table>`
    : `<p><small>${esc(fuzz?.headline ?? 'no fuzz run in this summary')}</small></p>`;
  const inputClasses = inputClassesTable(fuzz?.details);

  const compat = compatSection(compatibility ?? s.compatibility);

  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harness report — ${esc(s.verdict.toUpperCase())}</title><style>${CSS}</style></head>
<body><header><h1>Support Ticketing Service v1 — harness report</h1>
<div>Verdict <b class="${s.verdict}">${esc(s.verdict.toUpperCase())}</b> · target ${esc(s.target.embedded ? 'embedded reference deployment' : s.target.baseUrl)}${s.target.faults.length ? ` · faults ${esc(s.target.faults.join(', '))}` : ''} · run ${esc(s.runId)} · ${esc(s.startedAt)} · ${(s.durationMs / 1000).toFixed(1)} s${s.strict ? ' · strict' : ''}${s.partial ? ` · <span class="partial">partial: ${esc(s.partial)}</span>` : ''}</div>
<nav aria-label="sections">${SECTIONS.map(([id, title]) => `<a href="#${id}">${title}</a>`).join('')}</nav></header>
<main>
<section id="verdict"><h2>Verdict per area</h2>${unusableNote(s)}<table><tr><th>area</th><th>verdict</th><th>documented failures</th><th>assumption mismatches</th><th>not run</th><th>summary</th></tr>${areas}</table>
<p><small>Tests: ${s.tests.passed} passed, ${s.tests.failed} failed, ${s.tests.skipped} skipped. A documented rule broken fails the gate; a deviation from an assumption is reported${s.strict ? ' and, in strict mode, fails it' : ''}.</small></p>${onTarget(s)}</section>
<section id="failures"><h2>Failures (${documented.length} documented, ${assumed.length} assumption mismatches)</h2>
${replayNote(s, [...documented, ...assumed])}${failureBlocks(documented) || noFailures(s)}
${assumed.length ? `<details${assumed.length <= 3 ? ' open' : ''}><summary><b>Differs from assumption (${assumed.length})</b> <small>reported${s.strict ? ', fatal in strict mode' : ', not fatal'}</small></summary>${failureBlocks(assumed)}</details>` : ''}
${notRun.length ? `<h3>Not run</h3><table><tr><th>area</th><th>what</th><th>why</th></tr>${notRun.map((n) => `<tr><td>${esc(n.area)}</td><td>${esc(n.name)}</td><td>${esc(n.reason)}</td></tr>`).join('\n')}</table>` : ''}</section>
<section id="gaps"><h2>Gaps: assumption vs observed</h2><p><small>Where the service docs say "not shown", the harness assumes (docs/assumptions.md) and records what the deployment does.</small></p><table><tr><th>gap</th><th>assumption</th><th>observed</th></tr>${gapRows}</table></section>
<section id="limits"><h2>Plan limits</h2>${charts}</section>
<section id="fuzz"><h2>Fuzzing</h2><h3>Webhook receiver properties</h3>${fuzzTable}${inputClasses}</section>
<section id="checks"><h2>Checks</h2><div class="scroll"><table><tr><th>check</th><th>provenance</th><th>passed</th><th>failed</th></tr>${s.checks.map((c) => `<tr><td>${esc(c.name)}</td><td>${esc(c.provenance)}</td><td>${c.passed}</td><td class="${c.failed ? 'fail' : ''}">${c.failed}</td></tr>`).join('\n')}</table></div></section>
<section id="rules"><h2>Documented rules: what the run looked at</h2>${rulesSection(s)}</section>
<section id="matrix"><h2>Rules × operations</h2>${matrixSection(s.matrix)}</section>
${detectionSection(s)}
<section id="compatibility"><h2>Compatibility</h2>${compat}</section>
</main></body></html>
`;
  return redact(html);
}

/** Failures a section of the page shows; summary.json has them all. */
const PAGE_FAILURES = 200;

/** The first PAGE_FAILURES failures as blocks, and how many more there are. */
function failureBlocks(fs: readonly Failure[]): string {
  const blocks = fs.slice(0, PAGE_FAILURES).map(failureBlock);
  if (fs.length > PAGE_FAILURES)
    blocks.push(`<p><small>… and ${fs.length - PAGE_FAILURES} more in summary.json</small></p>`);
  return blocks.join('\n');
}

/**
 * The failures section with none to show: a pass only when a check was judged; an unusable target
 * (or a run where every area was skipped) judged nothing, and must not read as a green light.
 */
function noFailures(s: Summary): string {
  const judged = s.checks.some((c) => c.passed + c.failed > 0) || s.tests.passed > 0;
  return judged
    ? '<p class="pass">No documented rule is broken.</p>'
    : '<p class="not-run">No check ran, so no rule was judged.</p>';
}

/** What the run read of the target's data and what it left there (shared staging). */
function onTarget(s: Summary): string {
  const lines = targetLines(s);
  if (lines.length === 0) return '';
  const left = s.leftOnTarget?.left ?? [];
  const table = left.length
    ? `<details><summary>${left.length} object(s) left, with why</summary><table><tr><th>kind</th><th>id</th><th>area</th><th>why</th></tr>${left.map((l) => `<tr><td>${esc(l.kind)}</td><td><code>${esc(l.id)}</code></td><td>${esc(l.area ?? '')}</td><td>${esc(l.why)}</td></tr>`).join('')}</table></details>`
    : '';
  return `<p>${lines.map(esc).join('<br>')}</p>${table}`;
}

/** An interrupted run or an unusable target, said before anything else. */
function unusableNote(s: Summary): string {
  if (s.interrupted)
    return `<p><b class="error">Interrupted</b>: ${esc(s.interrupted)}. The run did not finish (exit 2); what it found before is below.</p>`;
  if (!s.unusable) return '';
  return `<p><b class="error">Target unusable</b>: ${esc(s.unusable.cause)}.<br>What to fix: ${esc(s.unusable.fix)}.<br><small>No check ran: this run says nothing about the contract (exit 2).</small></p>`;
}

/** Gaps about an operation's existence and status (U6–U9) are observed in the snapshot's operations. */
const GAP_OPERATIONS: Record<string, string> = {
  U6: 'PATCH /v1/tickets/{ticket_id}',
  U7: 'POST /v1/tickets/{ticket_id}/close',
  U8: 'GET /v1/tickets/{ticket_id}',
  U9: 'POST /v1/tickets/{ticket_id}/messages',
};

function operationGap(gap: string, snap?: BehaviourSnapshot): Record<string, unknown> | undefined {
  const op = GAP_OPERATIONS[gap];
  const seen = op ? snap?.operations[op] : undefined;
  if (!op || !seen) return undefined;
  return { [`${op} statuses seen`]: Object.keys(seen.statuses).map(Number) };
}

/** The detection matrix, when the run included it (`harness run --detect`). */
function detectionSection(s: Summary): string {
  const rows = s.areas.detection?.details as
    | Array<{
        fault: string;
        check: string;
        provenance: string;
        tests: number;
        caught: boolean;
        collateral?: Array<{ check: string }>;
        stale?: string[];
      }>
    | undefined;
  if (!Array.isArray(rows)) return '';
  const body = rows
    .map((r) => {
      const also = [
        ...(r.collateral ?? []).map((c) => c.check),
        ...(r.stale ?? []).map((c) => `listed but passed: ${c}`),
      ];
      const result = !r.caught ? 'MISSED' : also.length ? 'caught, not alone' : 'caught';
      return `<tr><td>${esc(r.fault)}</td><td>${esc(r.check)}</td><td>${esc(r.provenance)}</td><td>${r.tests}</td><td class="${result === 'caught' ? 'pass' : 'fail'}">${result}</td><td>${esc(also.join(', ') || 'none')}</td></tr>`;
    })
    .join('\n');
  return `<section id="detection"><h2>Detection matrix</h2><p><small>The suite against the reference deployment with each fault of the catalogue on: the fault's named check must fail, and no other check the catalogue does not list for the fault.</small></p><div class="scroll"><table><tr><th>fault</th><th>check</th><th>provenance</th><th>tests run</th><th>result</th><th>other checks failing (unlisted)</th></tr>${body}</table></div></section>`;
}

function matrixCell(c: MatrixCell | undefined): string {
  if (!c) return '<td></td>';
  if (c.state === 'n/a') return `<td class="na" title="${esc(`not applicable: ${c.why}`)}">—</td>`;
  if (c.state === 'not-reached')
    return `<td class="not-run" title="${esc(`not reached: ${c.why}`)}">?</td>`;
  const n = c.passed + c.failed;
  return c.failed
    ? `<td class="fail" title="${esc(`${c.failed} of ${n} judgements failed`)}">✗ ${c.failed}/${n}</td>`
    : `<td class="pass" title="${esc(`${n} judgements, all held`)}">✓ ${n}</td>`;
}

/**
 * The rule × operation matrix: rows are rules, columns the spec's operations and webhook events;
 * every "not reached" reason is listed below it (hover titles are not everyone's reading).
 */
function matrixSection(m: RuleMatrix | undefined): string {
  if (!m)
    return '<p><small>No contract test ran in this run: no rule was judged on any operation.</small></p>';
  const head = m.columns
    .map(
      (c) =>
        `<th class="col" title="${esc(`${c.label} (${c.provenance})`)}">${esc(c.kind === 'webhook' ? c.label : c.id)}</th>`,
    )
    .join('');
  const rows = m.rows
    .map(
      (r) =>
        `<tr><td class="rule" title="${esc(`${r.rule} — applies to ${r.appliesTo}`)}"><code>${esc(r.check)}</code></td><td>${esc(r.provenance)}</td>${m.columns.map((c) => matrixCell(r.cells[c.id])).join('')}</tr>`,
    )
    .join('\n');
  const reasons = new Map<string, string[]>();
  for (const r of m.rows)
    for (const c of m.columns) {
      const cell = r.cells[c.id];
      if (cell?.state !== 'not-reached') continue;
      reasons.set(cell.why, [
        ...(reasons.get(cell.why) ?? []),
        `${r.check} × ${c.kind === 'webhook' ? c.label : c.id}`,
      ]);
    }
  const notReached = [...reasons]
    .map(
      ([why, cells]) =>
        `<tr><td>${esc(why)}</td><td>${cells.length}</td><td><small>${esc(cells.slice(0, 12).join(', '))}${cells.length > 12 ? ` … and ${cells.length - 12} more` : ''}</small></td></tr>`,
    )
    .join('\n');
  const { checked, failed, notReached: nr, notApplicable } = m.counts;
  return `<p>${checked} cells checked (<span class="${failed ? 'fail' : 'pass'}">${failed} with a failure</span>), <span class="${nr ? 'not-run' : ''}">${nr} not reached on this target</span>, ${notApplicable} not applicable. <small>Rows: each rule that declares the operations it applies to (core/checks/applies-to.ts); columns: every operation and webhook event of spec/openapi.yaml. ✓ n: judged n times, all held · ✗ f/n: f of n failed · —: does not apply · ?: applies, not reached (hover a cell for why).</small></p>
<div class="scroll"><table class="matrix"><tr><th class="rule">rule</th><th>provenance</th>${head}</tr>${rows}</table></div>
${notReached ? `<h3>Not reached on this target</h3><table><tr><th>why</th><th>cells</th><th>which</th></tr>${notReached}</table>` : ''}`;
}

/** Reasons left out, one a line, the target's marked. */
function leftOutList(left: readonly LeftOut[]): string {
  return left
    .map(
      (l) =>
        `<div>${l.count}× ${l.byTarget ? '<b class="error">by the target</b> ' : ''}<small>${esc(l.why)}</small></div>`,
    )
    .join('');
}

/**
 * Per documented rule of the contract suite: its cells checked of those it applies to, its tests
 * run of those tagged with it, and why the rest were not — the target's own answers marked, and
 * a rule they kept from being checked on most of what it applies to said first.
 */
function rulesSection(s: Summary): string {
  const rules = s.rules;
  if (!rules?.length)
    return '<p><small>No contract test ran in this run: no documented rule was looked at.</small></p>';
  const head = s.unchecked?.length
    ? `<p><b class="error">${s.unchecked.length} documented rule(s) not checked</b>: the target's own answers kept the gate from looking at them on most of what they apply to — not a failure of the rule, and not a pass (exit 2).</p><ul>${s.unchecked.map((u) => `<li><code>${esc(u.check)}</code> — ${esc(u.why)}</li>`).join('')}</ul>`
    : '';
  const rows = [...rules]
    .sort((a, b) => Number(!a.unchecked) - Number(!b.unchecked))
    .map((r) => {
      const cells = r.cells ? `${r.cells.checked} of ${r.cells.applies}` : '—';
      return `<tr><td><code>${esc(r.check)}</code>${r.unchecked ? ' <b class="error">not checked</b>' : ''}<br><small>${esc(r.rule)}</small></td><td class="nowrap">${cells}</td><td>${leftOutList(r.cells?.notReached ?? [])}</td><td class="nowrap">${r.tests.ran} of ${r.tests.tagged}</td><td>${leftOutList(r.tests.notRun)}</td><td>${r.judged}</td></tr>`;
    })
    .join('\n');
  return `${head}<p><small>Cells: the rule × operation matrix's, for a rule that declares where it applies. Tests: the contract tests tagged with the rule. Only the target's own answers (a 429 in the rule's place, a test its rate limit stopped) can keep a rule from being checked; what an option not given (a key, a writable run, --grep) or an assumed route the target does not have leaves out is listed, not held against the run.</small></p><div class="scroll"><table><tr><th>rule</th><th>cells checked</th><th>cells not reached</th><th>tests run</th><th>tests not run</th><th>judgements</th></tr>${rows}</table></div>`;
}

/** Section ids and titles, in page order (the navigation and the browser test use them). */
export const SECTIONS: ReadonlyArray<readonly [string, string]> = [
  ['verdict', 'Verdict'],
  ['failures', 'Failures'],
  ['gaps', 'Gaps'],
  ['limits', 'Plan limits'],
  ['fuzz', 'Fuzzing'],
  ['checks', 'Checks'],
  ['rules', 'Rules looked at'],
  ['matrix', 'Rules × operations'],
  ['compatibility', 'Compatibility'],
];

/** What the comparison left out, and why: not findings, but not to be read as unchanged. */
function notesBlock(c: CompatibilityReport): string {
  const notes = c.notes ?? [];
  if (notes.length === 0) return '';
  const items = notesText(notes)
    .map((l) => `<li>${esc(l)}</li>`)
    .join('');
  return `<details><summary>${notes.length} thing(s) left out of the comparison (not findings)</summary><ul>${items}</ul></details>`;
}

function compatSection(c: CompatibilityReport | undefined): string {
  const how =
    '<p><small>Spec changes: <code>harness diff-spec OLD NEW</code>. Behaviour changes between two runs: <code>harness compare BASELINE CURRENT</code>.</small></p>';
  if (!c)
    return `<p><small>No baseline comparison in this run (it needs the whole contract suite and a baseline snapshot, <code>reports/baselines/reference.snapshot.json</code> or <code>HARNESS_BASELINE</code>).</small></p>${how}`;
  if (c.error)
    return `<p class="warn">Baseline ${esc(c.baseline)} could not be read: ${esc(c.error)}</p>${how}`;
  const head = `<p>Observed behaviour of this run against the baseline <code>${esc(c.baseline)}</code>${c.baselineTakenAt ? ` <small>(taken ${esc(c.baselineTakenAt)})</small>` : ''}: <span class="lvl-ERR">ERR ${c.counts.ERR}</span> · <span class="lvl-WARN">WARN ${c.counts.WARN}</span> · <span class="lvl-INFO">INFO ${c.counts.INFO}</span>. <small>Findings are <em>observed</em>: ${c.failOn ? `those at or above ${esc(c.failOn)} fail the gate (HARNESS_COMPAT_FAIL_ON), and are listed under Failures` : 'they are reported, never fatal (HARNESS_COMPAT_FAIL_ON=ERR gates on them)'}.${c.partial ? ' This run was partial (--grep).' : ''} Only what both runs observed is compared.</small></p>${notesBlock(c)}`;
  if (c.findings.length === 0)
    return `${head}<p class="pass">No behaviour change${c.notes?.length ? ' in what both runs observed' : ''}.</p>${how}`;
  const table = (rows: CompatibilityReport['findings']) =>
    `<table><tr><th>level</th><th>rule</th><th>where</th><th>change</th><th>baseline</th><th>current</th></tr>${rows
      .map(
        (f) =>
          `<tr><td class="lvl-${f.level} nowrap">${f.level}</td><td><code>${esc(f.rule)}</code></td><td>${esc(whereText(f.pointer))}</td><td>${esc(f.message)}</td><td><code>${esc(valueText(f.baseline))}</code></td><td><code>${esc(valueText(f.current))}</code></td></tr>`,
      )
      .join('\n')}</table>`;
  const major = c.findings.filter((f) => f.level !== 'INFO');
  const info = c.findings.filter((f) => f.level === 'INFO');
  return `${head}${major.length ? table(major) : '<p class="pass">No ERR or WARN finding.</p>'}${
    info.length
      ? `<details><summary>${info.length} INFO finding(s)</summary>${table(info)}</details>`
      : ''
  }${how}`;
}
