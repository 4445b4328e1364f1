/**
 * The code cache of a command is made by its first run; one that stopped early (`check --help`,
 * a config error) compiled little. The first run that reaches further makes it again, whole
 * (`CachedScript.saveCache`'s reach, the modules the build counts in the CLI's script).
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { REPO } from './run-cli.js';
import { runCosi } from '../support/cosi-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-code-cache-refresh-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The size of the worker's code cache of `check`, in this test's own cache directory. */
async function checkCacheSize(): Promise<number> {
  const caches = path.join(dir, `cosi-code-cache-${process.getuid?.() ?? 'user'}`);
  const names = (await readdir(caches)).filter((name) =>
    /^cli-script\.cjs-[0-9a-f]+-[0-9a-f]{16}-check\.v8c$/.test(name),
  );
  expect(names).toHaveLength(1);
  return (await stat(path.join(caches, names[0] ?? ''))).size;
}

it("is made again by the first run of a command that reaches further than the cache's", async () => {
  const env = { TMPDIR: dir };
  const help = await runCosi(['check', '--help'], REPO, 60_000, env);
  expect(help.code).toBe(0);
  const early = await checkCacheSize();
  // The first full run may take V8's heap step (a full collection while it compiles), after
  // which no cache is saved (V8 would refuse it): the next one saves it.
  let full = early;
  for (let run = 0; run < 3 && full === early; run++) {
    const check = await runCosi(['check', '-q', 'fixtures/vm-network'], REPO, 60_000, env);
    expect(check.code).toBe(0);
    full = await checkCacheSize();
  }
  expect(full).toBeGreaterThan(early * 1.5);
  // As far as the cache's run: it stands.
  await runCosi(['check', '-q', 'fixtures/vm-network'], REPO, 60_000, env);
  expect(await checkCacheSize()).toBe(full);
}, 120_000);
