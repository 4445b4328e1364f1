import { describe, expect, it } from 'vitest';
import { runCosi } from '../support/cosi-process.js';
import { cli, REPO } from './run-cli.js';

/**
 * `cosi test -v`, as `-v` on apply, check and the others: the controllers' logs on stderr, the
 * report on stdout unchanged; in this thread and in the worker the built CLI runs scenarios in.
 */
const SCENARIO = 'fixtures/scenarios/passing/vm-network.cosi-test.yaml';
const LOG_LINE =
  /^\S+ DEBUG vmnet\.NetworkConfigController destroyed output output=NetworkConfigs\.example\.org\(default\/web-2\)$/m;

describe('cosi test -v', () => {
  it('writes the controllers logs to stderr, and the same report', async () => {
    const quiet = await cli(['test', SCENARIO]);
    const verbose = await cli(['test', SCENARIO, '-v']);
    expect([quiet.code, verbose.code]).toEqual([0, 0]);
    expect(quiet.stderr).not.toMatch(LOG_LINE);
    expect(verbose.stderr).toMatch(LOG_LINE);
    expect(verbose.stdout).toBe(quiet.stdout);
  });

  it('does so from the worker thread the built CLI runs the scenarios in', async () => {
    const quiet = await runCosi(['test', SCENARIO], REPO);
    const verbose = await runCosi(['test', SCENARIO, '--verbose'], REPO);
    expect([quiet.code, verbose.code]).toEqual([0, 0]);
    expect(quiet.stderr).not.toMatch(LOG_LINE);
    expect(verbose.stderr).toMatch(LOG_LINE);
    expect(verbose.stdout).toBe(quiet.stdout);
  }, 60_000);
});
