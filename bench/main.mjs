/**
 * The entry of `npm run bench`: loads `run.ts` through jiti with `tryNative`, so that what the
 * benchmarks import from `dist/` (and from yaml, ink, ...) runs as native ES modules, the way the
 * CLI runs it. Without it, jiti transpiles every module it loads to CommonJS and wraps each in a
 * Proxy: every call from one engine module into another went through a Proxy trap, 8% of the
 * engine chain's time, and the figures measured a build nobody runs.
 */
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url, { tryNative: true });
await jiti.import('./run.ts');
