/**
 * A mutant's lasting name: what it is, not where it is. The file, the function it lies in, the
 * mutator, the text it replaces and the text it puts there —
 *
 *   server/guard.ts · installGuard › addHook('onRequest') · ConditionalExpression: !d.allowed → true #2
 *
 * so that the code can be formatted, moved within its file and split into functions of the same
 * name without a triage losing its mutant. The texts are compared with their layout normalised
 * (whitespace, a trailing comma before a closing bracket); a long one is cut and carries a hash
 * of the whole, so a change anywhere in it is a new mutant. The same mutant text twice in one
 * function is told apart by its rank there (`#2`: the second from the top), the one thing a move
 * inside that function can change. Stryker's own ids and locations are per run.
 */
import { createHash } from 'node:crypto';
import ts from 'typescript';

/** The text without its comments (a mutant's span is a whole node, so it parses alone). */
function stripComments(text: string): string {
  if (!text.includes('/*') && !text.includes('//')) return text;
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const ranges = new Map<number, number>();
  const collect = (at: number) => {
    for (const r of ts.getLeadingCommentRanges(text, at) ?? []) ranges.set(r.pos, r.end);
    for (const r of ts.getTrailingCommentRanges(text, at) ?? []) ranges.set(r.pos, r.end);
  };
  const visit = (n: ts.Node): void => {
    collect(n.pos);
    collect(n.end);
    n.forEachChild(visit);
  };
  visit(sf);
  let out = '';
  let at = 0;
  for (const [pos, end] of [...ranges].sort(([a], [b]) => a - b)) {
    if (pos < at) continue;
    out += `${text.slice(at, pos)} `;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * The text with its layout normalised — comments, whitespace, a trailing comma before a closing
 * bracket: what a formatter or a new comment may change is not part of a mutant.
 */
export function normalise(text: string): string {
  return stripComments(text)
    .replace(/,(\s*[)\]}])/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/([([{]) /g, '$1')
    .replace(/ ([)\]}])/g, '$1')
    .trim();
}

const MAX = 60;

/** A normalised text short enough for a key: cut, with a hash of the whole, when it is long. */
export function shortText(text: string): string {
  const n = normalise(text);
  if (n.length <= MAX) return n;
  const hash = createHash('sha1').update(n).digest('hex').slice(0, 8);
  return `${n.slice(0, MAX - 12)}… [${hash}]`;
}

type FunctionLike =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

function isFunctionLike(n: ts.Node): n is FunctionLike {
  return (
    ts.isFunctionDeclaration(n) ||
    ts.isFunctionExpression(n) ||
    ts.isArrowFunction(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessorDeclaration(n) ||
    ts.isSetAccessorDeclaration(n)
  );
}

function propertyName(n: ts.PropertyName | undefined): string | undefined {
  if (!n) return undefined;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
  if (ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
  return n.getText();
}

/** `Class.` for a class member, '' elsewhere. */
function owner(n: ts.Node): string {
  const c = n.parent;
  return c && (ts.isClassDeclaration(c) || ts.isClassExpression(c)) && c.name
    ? `${c.name.text}.`
    : '';
}

/** A call an anonymous function is passed to: `addHook('onRequest')`, `filter()`. */
function callName(call: ts.CallExpression | ts.NewExpression): string {
  const callee = call.expression;
  const name = ts.isPropertyAccessExpression(callee)
    ? callee.name.text
    : ts.isIdentifier(callee)
      ? callee.text
      : 'call';
  const first = call.arguments?.[0];
  const label =
    first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))
      ? `'${first.text}'`
      : '';
  return `${ts.isNewExpression(call) ? 'new ' : ''}${name}(${label})`;
}

/** How a function is known in its file: its name, or what it is given to or stored as. */
function functionName(fn: FunctionLike): string {
  if (ts.isConstructorDeclaration(fn)) return `${owner(fn)}constructor`;
  if (
    ts.isFunctionDeclaration(fn) ||
    ts.isMethodDeclaration(fn) ||
    ts.isGetAccessorDeclaration(fn) ||
    ts.isSetAccessorDeclaration(fn)
  )
    return `${owner(fn)}${propertyName(fn.name) ?? 'default'}`;
  if (fn.name) return fn.name.text;
  let p: ts.Node = fn.parent;
  while (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p))
    p = p.parent;
  if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (ts.isPropertyAssignment(p)) return propertyName(p.name) ?? '(anonymous)';
  if (ts.isPropertyDeclaration(p)) return `${owner(p)}${propertyName(p.name) ?? '(anonymous)'}`;
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) return callName(p);
  if (ts.isExportAssignment(p)) return 'default';
  return '(anonymous)';
}

/** The names of the functions around [start, end), outermost first; `(module)` for none. */
function enclosing(sf: ts.SourceFile, start: number, end: number): string {
  const names: string[] = [];
  const visit = (n: ts.Node): void => {
    n.forEachChild((c) => {
      if (c.getStart(sf) <= start && end <= c.end) {
        if (isFunctionLike(c)) names.push(functionName(c));
        visit(c);
      }
    });
  };
  visit(sf);
  return names.length ? names.join(' › ') : '(module)';
}

/** A 1-based line and column of the mutation-testing report, as an offset into `source`. */
function offset(sf: ts.SourceFile, p: { line: number; column: number }): number {
  return ts.getPositionOfLineAndCharacter(sf, p.line - 1, p.column - 1);
}

/** A span of the mutation-testing report: 1-based lines and columns, the end exclusive. */
export interface Span {
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** What a key is made of (a MutantResult of the report has it all). */
export interface KeyedMutant {
  mutatorName: string;
  replacement?: string;
  location: Span;
}

/** The text a mutant replaces. */
export function original(source: string, m: { location: Span }): string {
  const lines = source.split('\n');
  const { start, end } = m.location;
  if (start.line === end.line)
    return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  const first = lines[start.line - 1]!.slice(start.column - 1);
  const last = lines[end.line - 1]!.slice(0, end.column - 1);
  return [first, ...lines.slice(start.line, end.line - 1), last].join('\n');
}

/**
 * The lasting name of each mutant of one file (all of them at once: a rank needs its fellows),
 * in the order given.
 */
export function mutantKeys(
  file: string,
  source: string,
  mutants: readonly KeyedMutant[],
): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const bare = mutants.map((m) => {
    const fn = enclosing(sf, offset(sf, m.location.start), offset(sf, m.location.end));
    const what = `${m.mutatorName}: ${shortText(original(source, m))} → ${shortText(m.replacement ?? '')}`;
    return `${file} · ${fn} · ${what}`;
  });
  const order = mutants
    .map((m, i) => ({ m, i }))
    .sort(
      (a, b) =>
        a.m.location.start.line - b.m.location.start.line ||
        a.m.location.start.column - b.m.location.start.column ||
        a.m.location.end.line - b.m.location.end.line ||
        a.m.location.end.column - b.m.location.end.column,
    );
  const total = new Map<string, number>();
  for (const k of bare) total.set(k, (total.get(k) ?? 0) + 1);
  const seen = new Map<string, number>();
  const keys = [...bare];
  for (const { i } of order) {
    const k = bare[i]!;
    if (total.get(k)! < 2) continue;
    const rank = (seen.get(k) ?? 0) + 1;
    seen.set(k, rank);
    keys[i] = `${k} #${rank}`;
  }
  return keys;
}

/** A key without its file: the same mutant after its function moved to another file. */
export function withoutFile(key: string): string {
  return key.slice(key.indexOf(' · ') + 3);
}
