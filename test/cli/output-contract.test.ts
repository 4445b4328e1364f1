import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { cli, REPO } from './run-cli.js';

/** Runs the CLI in-process, recording which stream each write went to, in order. */
async function recordWrites(argv: string[]): Promise<{ stream: string; text: string }[]> {
  const writes: { stream: string; text: string }[] = [];
  await runCli(argv, {
    stdout: { write: (text: string) => writes.push({ stream: 'stdout', text }) },
    stderr: { write: (text: string) => writes.push({ stream: 'stderr', text }) },
    cwd: REPO,
    env: {},
    isTTY: false,
  });
  return writes.filter((w) => w.text !== '');
}

describe('the output contract: data on stdout, findings and the verdict on stderr', () => {
  it('prints the verdict last, after the resources, for apply, get and graph --resources', async () => {
    for (const argv of [
      ['apply', '-f', 'fixtures/vm-network', '--stable'],
      ['get', 'vm', '-f', 'fixtures/vm-network', '--stable'],
      ['graph', '-f', 'fixtures/vm-network', '--resources', '--stable'],
    ]) {
      const writes = await recordWrites(argv);
      expect(
        writes.map((w) => w.stream),
        argv.join(' '),
      ).toEqual(['stdout', 'stderr']);
      expect(writes.at(-1)?.text).toMatch(/^converged, /);
    }
  });

  it('says "No resources found" (in the namespace asked for) on stderr when a type has none, leaving stdout empty', async () => {
    const empty = await cli([
      'get',
      'placement',
      '-f',
      'fixtures/vm-network',
      '-n',
      'nowhere',
      '-q',
    ]);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    // As kubectl: the namespace asked for is named.
    expect(empty.stderr).toBe('No resources found in nowhere namespace.\n');
    // Every namespace (-A wins over -n, as kubectl): none named.
    const everywhere = await cli([
      'get',
      'sa',
      '-f',
      'fixtures/vm-network',
      '-n',
      'nowhere',
      '-A',
      '-q',
    ]);
    expect(everywhere).toMatchObject({ code: 0, stdout: '', stderr: 'No resources found\n' });
  });

  it("prints an empty List (-o json) or [] (jsonpath-as-json) for no resources, as kubectl, so | jq '.items | length' says 0", async () => {
    const empty = async (output: string) =>
      cli(['get', 'vm', '-f', 'fixtures/vm-network', '-l', 'nope=1', '-o', output, '-q']);
    const json = await empty('json');
    expect([json.code, json.stderr]).toEqual([0, '']);
    expect(JSON.parse(json.stdout)).toEqual({
      apiVersion: 'v1',
      items: [],
      kind: 'List',
      metadata: { resourceVersion: '' },
    });
    const values = await empty('jsonpath-as-json={.metadata.id}');
    expect([values.code, values.stdout, values.stderr]).toEqual([0, '[]\n', '']);
  });

  it('turns color off with FORCE_COLOR=0, even on a terminal', async () => {
    const colored = await cli(['apply', '-f', 'fixtures/vm-network'], { isTTY: true });
    expect(colored.stderr).toContain('\u001b[');
    const plain = await cli(['apply', '-f', 'fixtures/vm-network'], {
      isTTY: true,
      env: { FORCE_COLOR: '0' },
    });
    expect(plain.stderr).not.toContain('\u001b[');
    expect(plain.stdout).not.toContain('\u001b[');
  });
});
