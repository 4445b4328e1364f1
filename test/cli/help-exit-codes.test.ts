import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/program.js';
import { cli } from './run-cli.js';

describe("each command's --help", { timeout: 60_000 }, () => {
  it.each([...COMMAND_NAMES.filter((name) => !name.startsWith('__')), 'completion'])(
    'cosi %s --help ends with its exit codes',
    async (name) => {
      const r = await cli([name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\nExit codes[^\n]*: 0 /);
    },
  );
});

describe('cosi --help', { timeout: 60_000 }, () => {
  it('starts its examples with a first project, and one run in it without -f (review firsthour 10)', async () => {
    const examples = (await cli(['--help'])).stdout.split('\nExamples:\n')[1]?.split('\n') ?? [];
    expect(examples[0]).toMatch(/^ {2}cosi init my-project +start a project/);
    expect(examples[1]).toMatch(/^ {2}cosi check --expect expected +in a project .*no -f/);
  });
});

describe("cosi explain's exit codes", { timeout: 120_000 }, () => {
  it('are those its --help names: 3 for a run that does not converge, 1 for failing controllers (review docs 8)', async () => {
    const codes = (await cli(['explain', '--help'])).stdout.split('\nExit codes')[1] ?? '';
    const loop = await cli(['explain', 'echo', 'ping', '-f', 'fixtures/cli/ping-pong', '-q']);
    expect(loop.code).toBe(3);
    expect(loop.stdout).toContain('Echoes.test.cosi.dev(default/ping)');
    expect(codes).toMatch(/, 3 did not converge/);
    const failing = await cli(['explain', 'widget', 'bad', '-f', 'fixtures/cli/why-not', '-q']);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('Widgets.whynot.cosi.dev(default/bad)');
    expect(codes).toMatch(/: 0 explained, 1 [^,]*, failing controllers/);
  });
});

describe('cosi help TOPIC', () => {
  it('prints the help of a command, and says an unknown one as cosi nope does (review cli3 L5)', async () => {
    const get = await cli(['help', 'get']);
    expect(get.code).toBe(0);
    expect(get.stdout).toContain('Usage: cosi get');
    expect((await cli(['help', 'help'])).stderr).not.toContain('unknown command');
    expect(await cli(['help', 'aply'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "cosi: help: unknown command 'aply'\n(Did you mean apply?)\n",
    });
    expect(await cli(['help', 'nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "cosi: help: unknown command 'nope'\n",
    });
    // "explain and trace": the trace is a flag of apply, check and watch.
    expect(await cli(['trace'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "cosi: unknown command 'trace'\n(a run's trace is a flag: cosi apply --trace FILE, as check and watch take it; cosi explain follows one resource)\n",
    });
  });
});
