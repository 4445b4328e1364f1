/**
 * `cosi run` warns of each kro RGD instance that stays in progress (`rgd-waiting`), as
 * `cosi apply` does: an operator learns that an instance waits on status nothing here writes.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRuntime } from '../../src/cli/commands/run.js';
import type { CliIo } from '../../src/cli/io.js';
import { waitFor } from '../support/wait-for.js';
import { cli, REPO } from './run-cli.js';

/** The io of an in-process `cosi run`, its SIGTERM driven by the test. */
function harness(cwd: string): { io: CliIo; stderr: () => string; sigterm: () => void } {
  let stderr = '';
  let onTerm = (): void => undefined;
  return {
    io: {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
      cwd,
      env: {},
      isTTY: false,
      onInterrupt: () => () => undefined,
      onTerminate: (handler) => {
        onTerm = handler;
        return () => undefined;
      },
      exit: () => undefined,
    },
    stderr: () => stderr,
    sigterm: () => onTerm(),
  };
}

describe('cosi run and kro instances that stay in progress', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-run-rgd-'));
    await cp(path.join(REPO, 'fixtures/kro-examples/webapp'), dir, { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('logs the rgd-waiting warning cosi apply prints, once, after it converged', async () => {
    const applied = await cli(['apply', '-f', dir, '-o', 'name']);
    const warning = /warning\[rgd-waiting\]: (.+)$/m.exec(applied.stderr)?.[1];
    expect(warning).toMatch(/^WebApps\.kro\.run\(default\/test-app\) stays in progress: /);

    const h = harness(dir);
    const running = runRuntime(h.io, [], { state: 'memory', file: ['.'] });
    await waitFor(() => h.stderr().includes('code=rgd-waiting'), 20_000);
    h.sigterm();
    expect(await running).toEqual({ exitCode: 0 });
    const lines = h.stderr().split('\n');
    const said = lines.filter((l) => l.includes('rgd-waiting'));
    // The same words as cosi apply's, as a warning with its code.
    expect(said).toEqual([expect.stringContaining(` WARN  ${warning} code=rgd-waiting`)]);
    const at = lines.findIndex((l) => l.includes('rgd-waiting'));
    expect(lines.findIndex((l) => / INFO {2}converged in /.test(l))).toBeGreaterThan(-1);
    expect(at).toBeGreaterThan(lines.findIndex((l) => l.includes('leading: running')));
  }, 60_000);
});
