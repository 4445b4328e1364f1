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
  },
});
