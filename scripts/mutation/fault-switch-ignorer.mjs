// @ts-check
/**
 * A Stryker ignore-plugin: leaves out the mutants of the reference deployment's fault switches.
 *
 * Every fault of the catalogue (server/faults.ts) is a deviation guarded by a switch —
 * `ctx.faults.has('<name>')` in the API, a `faults.<flag>` of the webhook dispatcher — and the
 * gate runs with every switch off. A mutant of a switch either turns a fault on (`true`, `||`
 * for `&&` inside a switch): that is a fault of the catalogue, which the detection matrix
 * (run/detection.ts) already measures, not a fault nobody listed; or it changes code no request
 * reaches with the switches off (the consequent of `if (faults.has(…))`, a string inside the
 * switch): a no-op. Neither says anything about the gate's power on unlisted faults, so they are
 * not run; Stryker reports them as "Ignored" with the reason below, outside the score.
 *
 * What is left out: an expression that is falsy whenever no fault is on (a switch, `S && x`,
 * `x && S`, `S1 || S2`, `c ? S1 : S2`) or truthy (`!S`), and the branch only such a test opens.
 * A switch read through a variable (`const overlap = ctx.faults.has(…)`) is not seen: its uses
 * are mutated and triaged by hand.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const SWITCH =
  'fault switch (server/faults.ts): on, it is a catalogued fault the detection matrix measures; off, a no-op';
const BEHIND = 'reachable only with a fault of server/faults.ts on';

/** @param {any} n */
function isFaultsObject(n) {
  if (!n) return false;
  if (n.type === 'Identifier') return n.name === 'faults';
  return (
    (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') &&
    !n.computed &&
    n.property.type === 'Identifier' &&
    n.property.name === 'faults'
  );
}

/** `x.faults.has('…')` or `faults.<flag>` / `this.faults.<flag>`. @param {any} n */
function isSwitch(n) {
  if (!n) return false;
  if (n.type === 'CallExpression' || n.type === 'OptionalCallExpression') {
    const c = n.callee;
    return (
      (c.type === 'MemberExpression' || c.type === 'OptionalMemberExpression') &&
      !c.computed &&
      c.property.type === 'Identifier' &&
      c.property.name === 'has' &&
      isFaultsObject(c.object)
    );
  }
  return (
    (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') &&
    !n.computed &&
    isFaultsObject(n.object)
  );
}

/** Falsy whenever every fault is off. @param {any} n @returns {boolean} */
function offFalse(n) {
  if (!n) return false;
  if (isSwitch(n)) return true;
  if (n.type === 'LogicalExpression') {
    if (n.operator === '&&') return offFalse(n.left) || offFalse(n.right);
    if (n.operator === '||') return offFalse(n.left) && offFalse(n.right);
  }
  if (n.type === 'ConditionalExpression') return offFalse(n.consequent) && offFalse(n.alternate);
  if (n.type === 'UnaryExpression' && n.operator === '!') return offTrue(n.argument);
  return false;
}

/** Truthy whenever every fault is off. @param {any} n @returns {boolean} */
function offTrue(n) {
  if (!n) return false;
  if (n.type === 'UnaryExpression' && n.operator === '!') return offFalse(n.argument);
  if (n.type === 'LogicalExpression') {
    if (n.operator === '||') return offTrue(n.left) || offTrue(n.right);
    if (n.operator === '&&') return offTrue(n.left) && offTrue(n.right);
  }
  return false;
}

/** @type {import('@stryker-mutator/api/ignore').Ignorer} */
const faultSwitches = {
  shouldIgnore(path) {
    const p = /** @type {any} */ (path);
    const n = p.node;
    if (offFalse(n) || offTrue(n)) return SWITCH;
    const parent = p.parent;
    if (!parent) return undefined;
    if (parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') {
      if (parent.consequent === n && offFalse(parent.test)) return BEHIND;
      if (parent.alternate === n && offTrue(parent.test)) return BEHIND;
    }
    return undefined;
  },
};

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'fault-switches', faultSwitches),
];
