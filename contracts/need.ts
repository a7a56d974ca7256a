/**
 * `need(value, 'what the test needs')`: Playwright's `expect`, for a test's preconditions only
 * (contract rules are judged by named checks through `verdict`, never by expect). A failing
 * precondition is annotated `precondition` on the test, so the run report files it as an
 * assumption that did not hold (e.g. our assumed creation route is missing on the target)
 * without reading error text; any other failure of a test is a crash of the harness run.
 */
import { expect, test } from '@playwright/test';
import { PRECONDITION } from './annotations.ts';

function marked<M extends object>(m: M, what: string): M {
  return new Proxy(m, {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (prop === 'not') return marked(v as object, what);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        try {
          return v.apply(target, args);
        } catch (e) {
          test.info().annotations.push({ type: PRECONDITION, description: what });
          throw e;
        }
      };
    },
  });
}

export function need<T>(actual: T, what = 'a precondition of the test') {
  return marked(expect(actual, what), what);
}
