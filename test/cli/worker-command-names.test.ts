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
});
