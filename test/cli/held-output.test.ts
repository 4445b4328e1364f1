import { describe, expect, it } from 'vitest';
import { HELD_OUTPUT_LIMIT, holdOutput } from '../../src/cli/held-output.js';
import type { CliIo } from '../../src/cli/io.js';

function recordingIo(): { io: CliIo; written: string[] } {
  const written: string[] = [];
  const io: CliIo = {
    stdout: { write: (t: string) => written.push(`out:${t}`) },
    stderr: { write: (t: string) => written.push(`err:${t}`) },
    cwd: '/',
    env: {},
    isTTY: true,
  };
  return { io, written };
}

describe('holdOutput', () => {
  it('holds both streams until released, then writes them in order, and later output at once', () => {
    const { io, written } = recordingIo();
    const held = holdOutput(io);
    held.io.stderr.write('cosi: no manifests given\n');
    held.io.stdout.write('a\n');
    expect(written).toEqual([]);
    held.release();
    expect(written).toEqual(['err:cosi: no manifests given\n', 'out:a\n']);
    held.io.stderr.write('late\n');
    held.release();
    expect(written.at(-1)).toBe('err:late\n');
    expect(written).toHaveLength(3);
  });

  it('keeps the last output within its limit and says that earlier output was dropped', () => {
    const { io, written } = recordingIo();
    const held = holdOutput(io);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < (HELD_OUTPUT_LIMIT / 1024) * 2; i++) held.io.stderr.write(line);
    held.io.stderr.write('the last line\n');
    held.release();
    expect(written[0]).toBe('err:cosi: (earlier output of the session dropped)\n');
    expect(written.at(-1)).toBe('err:the last line\n');
    const kept = written.slice(1).reduce((n, t) => n + t.length - 'err:'.length, 0);
    expect(kept).toBeLessThanOrEqual(HELD_OUTPUT_LIMIT);
  });
});
