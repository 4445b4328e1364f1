import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const EXAMPLE = ['-f', 'fixtures/vm-network', '-q'];

describe('cosi get takes kubectl habits', { timeout: 60_000 }, () => {
  it('--sort-by orders by a JSONPath, numbers by value, given with or without braces', async () => {
    const byCpus = await cli(['get', 'vm', ...EXAMPLE, '--sort-by', '.spec.cpus', '-o', 'name']);
    expect(byCpus.stdout).toBe(
      'vms.example.org/web-1\nvms.example.org/web-2\nvms.example.org/db-1\n',
    );
    const byImage = await cli([
      'get',
      'vm',
      ...EXAMPLE,
      '--sort-by',
      '{.spec.image}',
      '-o',
      'name',
    ]);
    expect(byImage.stdout).toBe(
      'vms.example.org/web-1\nvms.example.org/web-2\nvms.example.org/db-1\n',
    );
    const byId = await cli(['get', 'vm', ...EXAMPLE, '--sort-by', '.metadata.id', '-o', 'name']);
    expect(byId.stdout).toBe(
      'vms.example.org/db-1\nvms.example.org/web-1\nvms.example.org/web-2\n',
    );
  });

  it('a malformed --sort-by is a usage error before the run', async () => {
    const bad = await cli(['get', 'vm', ...EXAMPLE, '--sort-by', '{.spec[}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sort-by: bad JSONPath "{.spec[}"');
    expect(bad.stdout).toBe('');
  });

  it('--no-headers drops the header line; --show-labels adds the labels', async () => {
    const plain = await cli(['get', 'vm', ...EXAMPLE, '--no-headers', '--show-labels']);
    const lines = plain.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.some((l) => l.includes('NAMESPACE'))).toBe(false);
    expect(lines[0]).toMatch(/^default\s+VM\s+db-1\s.*tier=data$/);
    const headed = await cli(['get', 'vm', ...EXAMPLE, '--show-labels']);
    expect(headed.stdout.split('\n')[0]).toMatch(/\sLABELS$/);
    const columns = await cli([
      'get',
      'vm',
      ...EXAMPLE,
      '--no-headers',
      '-o',
      'custom-columns=ID:.metadata.id',
    ]);
    expect(columns.stdout).toBe('db-1\nweb-1\nweb-2\n');
  });

  it('-A and --all-namespaces read every namespace, whatever -n says', async () => {
    const only = await cli(['get', 'vm', ...EXAMPLE, '-n', 'elsewhere', '-o', 'name']);
    expect(only.stdout).toBe('');
    for (const flag of ['-A', '--all-namespaces']) {
      const all = await cli(['get', 'vm', ...EXAMPLE, '-n', 'elsewhere', flag, '-o', 'name']);
      expect(all.stdout.split('\n').filter(Boolean)).toHaveLength(3);
    }
  });

  it('-o jsonpath-as-json prints the values as one JSON array', async () => {
    const each = await cli(['get', 'vm', ...EXAMPLE, '-o', 'jsonpath-as-json={.spec.cpus}']);
    expect(JSON.parse(each.stdout)).toEqual([6, 2, 2]);
    const items = await cli([
      'get',
      'vm',
      ...EXAMPLE,
      '-o',
      'jsonpath-as-json={.items[*].metadata.labels}',
    ]);
    expect(JSON.parse(items.stdout)).toEqual([{ tier: 'data' }, { tier: 'web' }, { tier: 'web' }]);
  });

  it('-o go-template is refused as out of scope, naming what to use instead', async () => {
    for (const output of [
      'go-template={{.spec.cpus}}',
      'go-template-file=t.tmpl',
      'template={{.x}}',
    ]) {
      const refused = await cli(['get', 'vm', ...EXAMPLE, '-o', output]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('Go templates are out of scope for cosi');
      expect(refused.stderr).toContain('-o jsonpath=TEMPLATE');
    }
  });
});

describe('github annotations', { timeout: 60_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-github-'));
    await mkdir(path.join(dir, '.git'));
    await mkdir(path.join(dir, 'project'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a config error has a line and a path relative to the workspace', async () => {
    await writeFile(
      path.join(dir, 'project/cosi.config.ts'),
      'export default { controller: [] };\n',
    );
    await writeFile(path.join(dir, 'project/a.yaml'), 'metadata: { type: x, id: a }\n');
    const check = await cli(['check', 'project', '-o', 'github'], {
      cwd: dir,
      env: { GITHUB_WORKSPACE: dir },
    });
    expect(check.code).toBe(2);
    const annotations = check.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(/^::error file=project\/cosi\.config\.ts,line=1,/);
  });

  it('a config that throws is annotated at the line that threw', async () => {
    await writeFile(
      path.join(dir, 'project/cosi.config.ts'),
      "const ok = 1;\nthrow new Error('boom');\nexport default { ok };\n",
    );
    const check = await cli(['check', 'project', '-o', 'github'], {
      cwd: path.join(dir, 'project'),
      env: { GITHUB_WORKSPACE: dir },
    });
    const annotations = check.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations[0]).toMatch(/^::error file=project\/cosi\.config\.ts,line=2,col=\d+,/);
  });
});
