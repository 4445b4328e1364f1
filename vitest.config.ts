import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Fixtures import 'cosi' as a user's project would; in tests that is this repository's source.
    alias: { cosi: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    reporters: ['default', './test/summary-reporter.ts'],
    pool: 'threads',
    // Bounds for a loaded 2-core CI machine, where vitest's defaults (5 s a test, 10 s a hook)
    // fail tests that are only slow: a CLI test that loads a config, a hook that starts etcd
    // (which itself waits up to 20 s for it to answer). A test that needs more says so itself.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll's own default is 1 s: a browser page or a process answers later under load.
    expect: { poll: { timeout: 20_000 } },
  },
});
