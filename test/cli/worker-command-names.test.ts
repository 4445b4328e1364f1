import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  mayBeGetWatch,
  runsOnceInWorker,
  WORKER_COMMAND_NAMES,
} from '../../src/cli/worker-command-names.js';
import { WORKER_COMMANDS } from '../../src/cli/worker-commands.js';

describe('the commands that run in a worker, told from the line alone', () => {
  it('are the commands whose definitions the worker table has', () => {
    expect([...WORKER_COMMAND_NAMES].sort()).toEqual([...WORKER_COMMANDS.keys()].sort());
  });

  it('run once in a worker unless they are watch or may be a get -w', () => {
    expect(runsOnceInWorker(['check', '-f', 'dir'])).toBe(true);
    expect(runsOnceInWorker(['get', 'vm', '-o', 'yaml'])).toBe(true);
    expect(runsOnceInWorker(['watch', '-f', 'dir'])).toBe(false);
    expect(runsOnceInWorker(['get', 'vm', '-qw'])).toBe(false);
    expect(runsOnceInWorker(['run', '-f', 'dir'])).toBe(false);
    expect(runsOnceInWorker([])).toBe(false);
    expect(mayBeGetWatch(['get', '--watch'])).toBe(true);
    expect(mayBeGetWatch(['get', '--wide'])).toBe(false);
  });

  it('are the commands bin/cosi.js starts a worker for before the CLI loads', () => {
    const bin = readFileSync(new URL('../../bin/cosi.js', import.meta.url), 'utf8');
    const listed = /const ONCE_IN_WORKER = new Set\(\[([^\]]*)\]\)/.exec(bin)?.[1] ?? '';
    const names = [...listed.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
    expect(names.sort()).toEqual(
      [...WORKER_COMMAND_NAMES].filter((name) => runsOnceInWorker([name])).sort(),
    );
  });
});
