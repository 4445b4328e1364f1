/**
 * The files `cosi check --update` and `--trace` write: only cosi's own are replaced or removed, a
 * special file where one goes is refused without blocking, and a file that cannot be written is a
 * one-line usage error naming it.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

const run = promisify(execFile);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-golden-files-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const update = (expectDir: string, ...more: string[]) =>
  cli(['check', '-f', 'fixtures/minimal', '--expect', expectDir, '--update', ...more]);

// The first test of the file loads the whole CLI in-process: over 5 s on a loaded machine.
describe('cosi check --update', { timeout: 20_000 }, () => {
  it('keeps the files of the golden directory it did not write', async () => {
    await writeFile(path.join(dir, 'docker-compose.yml'), 'services: {}\n');
    await writeFile(path.join(dir, 'mkdocs.yaml'), 'site_name: docs\n');
    await mkdir(path.join(dir, 'nested'));
    await writeFile(path.join(dir, 'nested', 'values.yaml'), 'replicas: 2\n');

    const result = await update(dir);

    expect(result.code).toBe(0);
    expect(await readFile(path.join(dir, 'docker-compose.yml'), 'utf8')).toBe('services: {}\n');
    expect(await readFile(path.join(dir, 'mkdocs.yaml'), 'utf8')).toBe('site_name: docs\n');
    expect(await readFile(path.join(dir, 'nested', 'values.yaml'), 'utf8')).toBe('replicas: 2\n');
    expect((await readdir(dir)).sort()).toEqual([
      '.cosi-goldens.json',
      'VMs.example.org.yaml',
      'docker-compose.yml',
      'mkdocs.yaml',
      'nested',
    ]);
  });

  it('removes a golden file it wrote before and no longer writes', async () => {
    await update(dir);
    const index = path.join(dir, '.cosi-goldens.json');
    const recorded = JSON.parse(await readFile(index, 'utf8')) as { files: string[] };
    // A type the manifests no longer have: as an earlier --update would have recorded it.
    await writeFile(path.join(dir, 'Disks.example.org.yaml'), 'metadata: {}\n');
    await writeFile(
      index,
      JSON.stringify({ files: [...recorded.files, 'Disks.example.org.yaml'] }),
    );

    expect((await update(dir)).code).toBe(0);

    expect((await readdir(dir)).sort()).toEqual(['.cosi-goldens.json', 'VMs.example.org.yaml']);
  });

  it('in a directory recorded without an index, removes only stale files of resources of their type', async () => {
    const stale =
      '---\nmetadata:\n  namespace: default\n  type: Disks.example.org\n  id: d1\nspec: {}\n';
    await writeFile(path.join(dir, 'Disks.example.org.yaml'), stale);
    await writeFile(path.join(dir, 'mkdocs.yaml'), 'metadata:\n  type: other\n  id: x\n');

    expect((await update(dir)).code).toBe(0);

    expect((await readdir(dir)).sort()).toEqual([
      '.cosi-goldens.json',
      'VMs.example.org.yaml',
      'mkdocs.yaml',
    ]);
  });

  it('never removes a path the index names outside the golden directory', async () => {
    const outside = path.join(dir, 'outside.yaml');
    await writeFile(outside, 'keep: me\n');
    const golden = path.join(dir, 'golden');
    await mkdir(golden);
    await writeFile(
      path.join(golden, '.cosi-goldens.json'),
      JSON.stringify({ files: ['../outside.yaml', 'sub/x.yaml'] }),
    );

    expect((await update(golden)).code).toBe(0);

    expect(await readFile(outside, 'utf8')).toBe('keep: me\n');
  });

  it('passes the next check with foreign YAML files beside the goldens, left byte for byte', async () => {
    const compose = Buffer.from('services:\n  web: { image: nginx }\n');
    const values = Buffer.from('replicas: 2\n');
    await writeFile(path.join(dir, 'docker-compose.yml'), compose);
    await mkdir(path.join(dir, 'nested'));
    await writeFile(path.join(dir, 'nested', 'values.yaml'), values);
    expect((await update(dir)).code).toBe(0);

    // Twice: a check reads the goldens the index names, never the other files.
    for (let i = 0; i < 2; i++) {
      const check = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '-o', 'json']);
      expect(check.stdout).not.toContain('invalid-expectation');
      expect(check.code).toBe(0);
    }
    expect(await readFile(path.join(dir, 'docker-compose.yml'))).toEqual(compose);
    expect(await readFile(path.join(dir, 'nested', 'values.yaml'))).toEqual(values);
  });

  it('still compares the goldens the index names: an edited one fails the check', async () => {
    await writeFile(path.join(dir, 'docker-compose.yml'), 'services: {}\n');
    expect((await update(dir)).code).toBe(0);
    const golden = path.join(dir, 'VMs.example.org.yaml');
    await writeFile(golden, (await readFile(golden, 'utf8')).replace(/cpus: \d+/, 'cpus: 99'));

    const check = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '-o', 'json']);

    expect(check.code).toBe(1);
    expect(check.stdout).toContain('unexpected-state');
    expect(check.stdout).not.toContain('invalid-expectation');
  });

  it.each([
    ['a FIFO', (file: string) => run('mkfifo', [file])],
    ['a directory', (file: string) => mkdir(file)],
  ])(
    'refuses %s at the index before writing any golden file, with exit 2',
    async (kind, make) => {
      const golden = path.join(dir, 'VMs.example.org.yaml');
      await writeFile(golden, 'recorded before\n');
      const index = path.join(dir, '.cosi-goldens.json');
      await make(index);

      const result = await update(dir);

      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `cosi: cannot write ${index}: it is ${kind}, not a regular file\n`,
      );
      expect(await readFile(golden, 'utf8')).toBe('recorded before\n');
      expect((await readdir(dir)).sort()).toEqual(['.cosi-goldens.json', 'VMs.example.org.yaml']);
    },
    10_000,
  );

  it('refuses a FIFO where a golden file goes, at once, with exit 2', async () => {
    await run('mkfifo', [path.join(dir, 'VMs.example.org.yaml')]);

    const result = await update(dir);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `cosi: cannot write ${path.join(dir, 'VMs.example.org.yaml')}: it is a FIFO, not a regular file\n`,
    );
  }, 10_000);

  it('compares against a FIFO named like a golden without reading it', async () => {
    await run('mkfifo', [path.join(dir, 'VMs.example.org.yaml')]);

    const result = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '-o', 'json']);

    expect(result.code).toBe(1);
    expect(result.stdout).toContain('invalid-expectation');
  }, 10_000);

  it('says EEXIST in one line, naming the path, where the golden directory is a file', async () => {
    const file = path.join(dir, 'mkdocs.yaml');
    await writeFile(file, 'site_name: docs\n');

    const result = await update(file);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`cosi: cannot write ${file}: a file is in the way (EEXIST)\n`);
    expect(await readFile(file, 'utf8')).toBe('site_name: docs\n');
  });
});

describe('cosi check --trace', () => {
  it('says ENOENT in one line, naming the path, where its directory is missing', async () => {
    const file = path.join(dir, 'missing', 'trace.json');

    const result = await cli(['check', '-f', 'fixtures/minimal', '--trace', file]);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`cosi: cannot write ${file}: no such directory (ENOENT)\n`);
  });

  it('refuses a directory where the trace goes', async () => {
    const result = await cli(['check', '-f', 'fixtures/minimal', '--trace', dir]);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `cosi: cannot write ${dir}: it is a directory, not a regular file\n`,
    );
  });

  it('is refused before the project runs, not once it is done (apply, check, report)', async () => {
    const file = path.join(dir, 'missing', 'trace.json');
    const refusal = `cosi: cannot write ${file}: no such directory (ENOENT)\n`;
    // apply prints the converged state on stdout: nothing ran.
    const applied = await cli(['apply', '-f', 'fixtures/minimal', '--trace', file]);
    expect([applied.code, applied.stdout, applied.stderr]).toEqual([2, '', refusal]);
    // check's report is its setup case alone: no manifest was read.
    const checked = await cli(['check', '-f', 'fixtures/minimal', '--report', file, '-o', 'json']);
    const report = JSON.parse(checked.stdout) as { cases: { check: string }[] };
    expect([checked.code, report.cases.map((c) => c.check)]).toEqual([2, ['setup']]);
  });

  it('replaces the trace file whole and leaves no temporary file beside it', async () => {
    const file = path.join(dir, 'trace.json');
    await writeFile(file, 'old');

    expect((await cli(['check', '-f', 'fixtures/minimal', '--trace', file])).code).toBe(0);

    expect(JSON.parse(await readFile(file, 'utf8'))).toHaveProperty('traceEvents');
    expect(await readdir(dir)).toEqual(['trace.json']);
  });
});

describe('a file cosi may not write', () => {
  /**
   * The built CLI as a user without the right to write in `dir`: root writes anywhere, so as root
   * the process is started as `nobody` (65534), which can read the repository but not `dir`.
   */
  async function unprivileged(
    ...args: string[]
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    await chmod(dir, 0o555);
    const asRoot = process.getuid?.() === 0;
    try {
      const { stdout, stderr } = await run(process.execPath, ['bin/cosi.js', ...args], {
        cwd: REPO,
        timeout: 30_000,
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    } finally {
      await chmod(dir, 0o755);
    }
  }

  it.each([
    [
      'a golden file',
      ['check', '-f', 'fixtures/minimal', '--expect', '{dir}', '--update'],
      'VMs.example.org.yaml',
    ],
    ['a trace', ['check', '-f', 'fixtures/minimal', '--trace', '{dir}/trace.json'], 'trace.json'],
    ['a report', ['report', '-f', 'fixtures/minimal', '-o', '{dir}/report.html'], 'report.html'],
  ])(
    '%s is refused with EACCES in one line naming it, exit 2',
    async (_name, args, file) => {
      const r = await unprivileged(...args.map((arg) => arg.replace('{dir}', dir)));

      expect(r.stderr).toBe(
        `cosi: cannot write ${path.join(dir, file)}: permission denied (EACCES)\n`,
      );
      expect(r.code).toBe(2);
      expect(await readdir(dir)).toEqual([]);
    },
    40_000,
  );
});

// Kubernetes-shaped goldens (a CRD's or a built-in kind's resources, kro's outputs and instances)
// are written as `apply -o yaml --stable` prints them: apiVersion, kind, metadata.name.
describe('cosi check --expect with Kubernetes kinds', { timeout: 40_000 }, () => {
  it.each(['fixtures/kubernetes', 'fixtures/kro-webapp'])(
    '%s: the goldens --update wrote pass the next check',
    async (fixture) => {
      expect((await cli(['check', '-f', fixture, '--expect', dir, '--update'])).code).toBe(0);

      const r = await cli(['check', '-f', fixture, '--expect', dir]);

      expect(r.stdout).not.toContain('invalid-expectation');
      expect(r.stdout).toMatch(/expectations: \d+ passed, 0 failed/);
      expect(r.code).toBe(0);
    },
  );

  it('a changed field of a Deployment is a diff at its golden, the others pass', async () => {
    await cli(['check', '-f', 'fixtures/kro-webapp', '--expect', dir, '--update']);
    const file = path.join(dir, 'Deployments.apps.yaml');
    const golden = await readFile(file, 'utf8');
    expect(golden).toContain('kind: Deployment');
    await writeFile(file, golden.replace('image: nginx', 'image: httpd'));

    const r = await cli(['check', '-f', 'fixtures/kro-webapp', '--expect', dir]);

    expect(r.code).toBe(1);
    expect(r.stdout).toContain('error[unexpected-state]: Deployments.apps(default/blog)');
    expect(r.stdout).toContain('-          image: httpd');
    expect(r.stdout).not.toContain('invalid-expectation');
    expect(r.stdout).not.toContain('unexpected-resource');
  });

  it('a difference is reported at the first field that differs, or the nearest parent the golden has', async () => {
    await update(dir);
    const file = path.join(dir, 'VMs.example.org.yaml');
    const golden = await readFile(file, 'utf8');
    // web-1's image (line 12) differs; db-1's spec loses its image key: at its spec's fields (23).
    await writeFile(
      file,
      golden.replace('  image: debian', '  image: alpine').replace('  image: postgres\n', ''),
    );

    const r = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir]);

    const places = r.stdout
      .split('\n')
      .filter((l) => l.includes('error[unexpected-state]'))
      .map((l) => l.split(': error')[0]);
    expect(places).toEqual([
      `${dir}/VMs.example.org.yaml:12:10`,
      `${dir}/VMs.example.org.yaml:23:3`,
    ]);
  });

  it('a golden of a Kubernetes kind the state no longer has is a missing resource', async () => {
    await cli(['check', '-f', 'fixtures/kro-webapp', '--expect', dir, '--update']);
    await writeFile(
      path.join(dir, 'Deployments.apps.yaml'),
      `${await readFile(path.join(dir, 'Deployments.apps.yaml'), 'utf8')}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: gone\n  namespace: default\n`,
    );

    const r = await cli(['check', '-f', 'fixtures/kro-webapp', '--expect', dir]);

    expect(r.stdout).toContain(
      'error[missing-resource]: expected Deployments.apps(default/gone), but the converged state has no such resource',
    );
    expect(r.code).toBe(1);
  });

  it("masks a Secret's values in the diff, as kubectl diff does: which key changed, not to what", async () => {
    const secret = (password: string): string => `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
stringData:
  password: ${password}
  user: SAME-SECRET-USER
`;
    const project = path.join(dir, 'project');
    const expected = path.join(dir, 'expected');
    await mkdir(project);
    await mkdir(expected);
    await writeFile(path.join(project, 'secret.yaml'), secret('ACTUAL-SECRET'));
    await writeFile(path.join(expected, 'secret.yaml'), secret('EXPECTED-SECRET'));

    const r = await cli(['check', '-f', project, '--expect', expected]);

    expect(r.code).toBe(1);
    expect(r.stdout).toContain('error[unexpected-state]: Secrets.core(default/db)');
    expect(r.stdout).toContain('-  password: "*** (before)"');
    expect(r.stdout).toContain('+  password: "*** (after)"');
    expect(r.stdout).toContain('   user: "***"');
    expect(r.stdout).not.toMatch(/-SECRET/);
    // Nor in the report's page, its diff or the golden file's lines under the finding.
    const page = await cli(['report', '-f', project, '--expect', expected, '-o', '-']);
    expect(page.code).toBe(1);
    expect(page.stdout).toContain('unexpected-state');
    expect(page.stdout).not.toMatch(/-SECRET/);
  });
});
