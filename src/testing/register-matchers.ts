/**
 * `import 'cosi/testing/matchers'`: registers {@link cosiMatchers} (`toHaveResource`,
 * `toConverge`, `toHaveFinding`) on the test runner's `expect`: jest's global one, or vitest's
 * (imported when there is no global `expect`). Neither runner is a dependency of cosi.
 */
import { cosiMatchers, type CosiMatchers } from './matchers.js';

interface Extensible {
  extend(matchers: Record<string, unknown>): void;
}

const global = (globalThis as { expect?: Partial<Extensible> }).expect;
const target: Partial<Extensible> | undefined =
  typeof global?.extend === 'function' ? global : await importVitestExpect();
if (typeof target?.extend !== 'function') {
  throw new Error(
    "cosi/testing/matchers: no test runner's expect was found (run it under vitest or jest, or call expect.extend(cosiMatchers) yourself)",
  );
}
target.extend(cosiMatchers);

async function importVitestExpect(): Promise<Partial<Extensible> | undefined> {
  try {
    // A variable: neither TypeScript nor a bundler should resolve vitest for users without it.
    const name = 'vitest';
    return ((await import(name)) as { expect?: Extensible }).expect;
  } catch {
    return undefined;
  }
}

/*
 * The matchers' types. vitest's assertions are Chai's, mapped (`Assertion` extends
 * `VitestAssertion<Chai.Assertion, ...>`), so a method of Chai's `Assertion` is one of every
 * vitest assertion, `.not`, `.resolves` and `.rejects` included. vitest's own `Matchers`
 * interface is the documented place, but its type parameters changed in vitest 5 (`<T>` became
 * `<R, T>`), and an augmentation merges only with the same parameters: declared here, on Chai,
 * the types hold with vitest 4 and 5 alike, and need no vitest to compile.
 */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Chai's own declaration is a namespace
  namespace Chai {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an augmentation
    interface Assertion extends CosiMatchers<void> {}
  }
}

export {};
