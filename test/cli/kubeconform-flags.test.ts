import { describe, expect, it } from 'vitest';
import { runCosi } from '../support/cosi-process.js';
import { cli, REPO } from './run-cli.js';

const VALID = 'test/fixtures/kubeconform/valid.yaml';

describe("a kubeconform command line is told cosi's flags", { timeout: 60_000 }, () => {
  it.each([
    ['-skip', 'Secret', "(kubeconform's -skip is --skip-kinds here)"],
    ['--skip', 'Secret', "(kubeconform's -skip is --skip-kinds here)"],
    ['-reject', 'Secret', "(kubeconform's -reject is --reject-kinds here)"],
    ['--reject', 'Secret', "(kubeconform's -reject is --reject-kinds here)"],
    [
      '-ignore-missing-schemas',
      undefined,
      "(kubeconform's -ignore-missing-schemas is --ignore-unknown-kinds here)",
    ],
    [
      '-kubernetes-version',
      '1.30.0',
      "(kubeconform's -kubernetes-version is --kubernetes-version here)",
    ],
    [
      '-strict',
      undefined,
      "(kubeconform's -strict: cosi check always fails on undeclared fields and keys written twice: leave it out (--strict fails on warnings too))",
    ],
    ['-cache', '/tmp/x', "(kubeconform's -cache is --schema-cache here)"],
    ['--cache', '/tmp/x', "(kubeconform's -cache is --schema-cache here)"],
    ['-schema-location', 'default', "(kubeconform's -schema-location is --schema-location here)"],
    [
      '-summary',
      undefined,
      '(kubeconform\'s -summary: cosi check always ends with its summary ("N passed, N failed"): leave it out)',
    ],
  ])('check %s says what to write instead, and exits 2', async (flag, value, said) => {
    const r = await cli(['check', flag, ...(value === undefined ? [] : [value]), VALID]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    // In place of commander's guess by spelling (--reject was "--expect, --report?").
    expect(r.stderr).toBe(`cosi: unknown option '${flag}'\n${said}\n`);
  });

  it('-skip=Secret, with its value after =, as Go takes it', async () => {
    const r = await cli(['check', '-skip=Secret', VALID]);
    expect(r.stderr).toBe(
      "cosi: unknown option '-skip=Secret'\n(kubeconform's -skip is --skip-kinds here)\n",
    );
  });

  it('-output json, which reads as -o utput, is said as what it is', async () => {
    const r = await cli(['check', '-output', 'json', VALID]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'cosi: -o: unknown format "utput" (kubeconform\'s "-output FORMAT" reads here as "-o utput": write -o FORMAT or --output FORMAT)',
    );
  });

  it('a flag the command has no counterpart of keeps what commander said', async () => {
    // get takes no --skip-kinds: nothing to point to.
    const get = await cli(['get', 'vm', '-skip', 'x']);
    expect(get.stderr).toBe("cosi: unknown option '-skip'\n(cosi get --help lists its flags)\n");
    // get has no summary to speak of either.
    expect((await cli(['get', 'vm', '-summary'])).stderr).toBe(
      "cosi: unknown option '-summary'\n(cosi get --help lists its flags)\n",
    );
    const misspelt = await cli(['check', '--strcit', VALID]);
    expect(misspelt.stderr).toBe("cosi: unknown option '--strcit'\n(Did you mean --strict?)\n");
  });

  it('says it from the real process too', async () => {
    const r = await runCosi(['check', '-ignore-missing-schemas', VALID], REPO);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "(kubeconform's -ignore-missing-schemas is --ignore-unknown-kinds here)",
    );
  });
});
