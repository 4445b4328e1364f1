import { afterEach, describe, expect, it } from 'vitest';
import { spawnCosi, type CosiProcess } from './cosi-process.js';

/** How a wait fails: its message, and how long it took to fail. */
async function failureOf(wait: Promise<unknown>): Promise<{ message: string; ms: number }> {
  const started = Date.now();
  const error = await wait.then(
    () => new Error('the wait succeeded'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  return { message: (error as Error).message, ms: Date.now() - started };
}

// Far beyond what a CLI start takes on a loaded machine: a wait that fails well within it did not
// sit out its timeout.
const TIMEOUT_MS = 120_000;
const FAST_MS = 30_000;

describe('spawnCosi waits fail at once when the process exits first', () => {
  let p: CosiProcess | undefined;
  afterEach(async () => {
    p?.kill('SIGKILL');
    await p?.exited;
    p = undefined;
  });

  it('waitForStdout names the exit code and shows what it wrote to stdout and stderr', async () => {
    p = spawnCosi(['get', 'vms', '-f', 'fixtures/minimal'], undefined, { stdout: true });
    const { message, ms } = await failureOf(
      p.waitForStdout((out) => out.includes('never printed'), TIMEOUT_MS),
    );
    expect(ms).toBeLessThan(FAST_MS);
    expect(message).toMatch(/^cosi get exited with code 0 while waiting for stdout of cosi get/);
    expect(message).toContain('stdout (all):');
    expect(message).toMatch(/default +VM +web-1/);
    expect(message).toMatch(/stderr \(all\):\nconverged, 2 resources/);
  }, 60_000);

  it('waitForLine names the exit code of a process that failed, with its findings', async () => {
    p = spawnCosi(['get', 'vms', '-f', '/nonexistent'], undefined, { stdout: true });
    const { message, ms } = await failureOf(p.waitForLine(/never printed/, TIMEOUT_MS));
    expect(ms).toBeLessThan(FAST_MS);
    expect(message).toMatch(/^cosi get exited with code 1 while waiting for a line matching/);
    expect(message).toContain('error[path-not-found]: /nonexistent does not exist');
  }, 60_000);

  it('names the signal that ended the process', async () => {
    p = spawnCosi(['watch', '-f', 'fixtures/minimal', '--plain'], undefined, { stdout: true });
    p.kill('SIGKILL');
    const { message, ms } = await failureOf(
      p.waitForStdout((out) => out.includes('round 1'), TIMEOUT_MS),
    );
    expect(ms).toBeLessThan(FAST_MS);
    expect(message).toMatch(/^cosi watch was killed by SIGKILL while waiting for/);
  }, 60_000);

  it('shows only the tail of a long output', async () => {
    p = spawnCosi(['get', 'vms', '-f', 'fixtures/vm-network', '-o', 'yaml'], undefined, {
      stdout: true,
    });
    const { message } = await failureOf(p.waitForStdout(() => false, TIMEOUT_MS));
    const lines = p.stdout().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(40);
    expect(message).toContain(`stdout (last 40 of ${String(lines.length)} lines):\n`);
    expect(message).toContain(lines.slice(-40).join('\n'));
    expect(message).not.toContain(lines.slice(-41).join('\n'));
  }, 60_000);
});
