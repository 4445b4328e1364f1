import { describe, expect, it } from 'vitest';
import { applyCommand, type ApplyFlags } from '../../src/cli/commands/apply.js';
import { checkCommand, type CheckFlags } from '../../src/cli/commands/check.js';
import { getCommand, type GetFlags } from '../../src/cli/commands/get.js';
import type { CliIo } from '../../src/cli/io.js';
import { cli, REPO } from './run-cli.js';

/** An io that keeps what is written to it, from the repository root. */
function recordingIo(): CliIo & { readonly out: string[]; readonly err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    cwd: REPO,
    env: {},
    isTTY: false,
  };
}

describe('commands return their data, and a renderer prints it', () => {
  it("apply's run returns the converged resources and writes nothing", async () => {
    const io = recordingIo();
    const flags: ApplyFlags = { output: 'table', file: ['fixtures/minimal'], stable: true };

    const { exitCode, result } = await applyCommand.run(io, [], flags);

    expect(exitCode).toBe(0);
    expect(io.out).toEqual([]);
    expect(io.err).toEqual([]);
    const groups = result.converged?.data ?? [];
    expect(groups.map((g) => g.type)).toEqual(['VMs.example.org']);
    expect(groups[0]?.resources.map((r) => r.metadata.id)).toEqual(['web-1', 'db-1']);
    expect(result.converged?.outcome.report.converged).toBe(true);
  });

  it("apply's renderer alone prints what `cosi apply` prints", async () => {
    const flags: ApplyFlags = { output: 'yaml', file: ['fixtures/minimal'], stable: true };
    const returned = await applyCommand.run(recordingIo(), [], flags);
    const io = recordingIo();

    await applyCommand.render(io, returned, [], flags);

    const printed = await cli(['apply', '-f', 'fixtures/minimal', '-o', 'yaml', '--stable']);
    expect(io.out.join('')).toBe(printed.stdout);
    expect(io.err.join('')).toBe(printed.stderr);
  });

  it("get's run returns no resources for an id that is not there, and its renderer says so", async () => {
    const flags: GetFlags = { output: 'table', file: ['fixtures/minimal'] };
    const io = recordingIo();

    const returned = await getCommand.run(io, 'vm', ['nope'], flags);

    expect(returned.exitCode).toBe(1);
    expect(returned.result.from === 'run' && returned.result.run.converged?.data).toEqual([]);
    expect(io.err).toEqual([]);
    await getCommand.render(io, returned, 'vm', ['nope'], flags);
    expect(io.out).toEqual([]);
    expect(io.err.join('')).toContain('cosi: resource "nope" of type "vm" not found\n');
  });

  it("check's run returns its cases and findings; each format is a rendering of the same data", async () => {
    const flags: CheckFlags = { output: 'json', file: ['fixtures/invalid/unknown-type'] };
    const io = recordingIo();

    const returned = await checkCommand.run(io, [], flags);

    expect(returned.exitCode).toBe(1);
    expect(io.out).toEqual([]);
    const codes = returned.result.check.cases.flatMap((c) => c.findings.map((f) => f.code));
    expect(codes).toContain('unknown-type');
    await checkCommand.render(io, returned, [], flags);
    const printed = await cli(['check', '-f', 'fixtures/invalid/unknown-type', '-o', 'json']);
    expect(io.out.join('')).toBe(printed.stdout);
    const tap = recordingIo();
    await checkCommand.render(tap, returned, [], { ...flags, output: 'tap' });
    expect(tap.out.join('')).toMatch(/^not ok /m);
  });
});
