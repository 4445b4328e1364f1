/**
 * `cosi check` stopped by a signal, as a cancelled CI job stops it: it ends at once, by the
 * signal (130 / 143 in a shell, as its help says), and writes no report, so that an interrupted
 * `-o junit > report.xml` is an empty file, never a passing report.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

describe('cosi check stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'ends at once on %s while it waits on a standard input that never closes, writing nothing',
    { timeout: 60_000 },
    async (signal) => {
      const child = spawn(
        process.execPath,
        [path.join(REPO, 'bin/cosi.js'), 'check', '-f', '-', '-o', 'junit'],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      );
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const ended = new Promise<NodeJS.Signals | number | null>((resolve) =>
        child.once('exit', (code, killedBy) => resolve(killedBy ?? code)),
      );
      // A document begun and never ended, 1 MiB of it: the input stays open, as a stuck
      // producer's does. The write completes once cosi has read most of it, 16 times what a
      // pipe holds: it is reading its input when the signal comes.
      const begun = `apiVersion: v1\nkind: ConfigMap\n${'# waiting\n'.repeat(100_000)}`;
      await new Promise<void>((resolve, reject) =>
        child.stdin.write(begun, (error) => (error ? reject(error) : resolve())),
      );
      const sent = Date.now();
      child.kill(signal);
      expect(await ended).toBe(signal);
      expect(Date.now() - sent).toBeLessThan(10_000);
      expect(stdout).toBe('');
      child.stdin.destroy();
    },
  );

  it('says so in its help, beside the other exit codes', async () => {
    const help = await cli(['check', '--help']);
    expect(help.stdout).toContain(
      '130 / 143 stopped by Ctrl-C / SIGTERM (no report\nis written: an empty report.xml, never a passing one)',
    );
  });
});
