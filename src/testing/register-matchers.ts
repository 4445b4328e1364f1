/**
 * `import 'cosi/testing/matchers'`: registers {@link cosiMatchers} (`toHaveResource`,
 * `toConverge`, `toHaveFinding`) on the test runner's `expect`: jest's global one, or vitest's
 * (imported when there is no global `expect`). Neither runner is a dependency of cosi.
 */
import { cosiMatchers, type CosiMatchers } from './matchers.js';
// Types only (erased): what the augmentation below extends. Users without vitest never load it.
import type {} from 'vitest';

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

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- vitest's own declaration
  interface Matchers<T = any> extends CosiMatchers<T> {}
}

export {};
