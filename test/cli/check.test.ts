import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeStarterProject } from '../../src/app/init/write-starter-project.js';
import { temporaryDirectory } from '../support/temporary-directory.js';
import { cli, REPO } from './run-cli.js';

const INVALID = [
  'alias-bomb',
  'ambiguous-type',
  'duplicate-keys',
  'duplicate-resource',
  'empty-input',
  'invalid-id',
  'schema-violations',
  'unknown-type',
  'yaml-syntax',
];

async function goldenDir(): Promise<string> {
  return temporaryDirectory('cosi-golden-');
}

describe('cosi check', { timeout: 60_000 }, () => {
  it('passes a valid tree and ends with N passed, N failed per class and overall', async () => {
    const r = await cli(['check', '-f', 'fixtures/minimal']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    // Each document is a case, as kubeconform counts resources; the summary counts files too.
    expect(lines).toContain('manifests: 3 resources in 2 files: 3 valid, 0 invalid');
    expect(lines).toContain('convergence: 1 passed, 0 failed');
    expect(lines.at(-1)).toBe('4 passed, 0 failed');
  });

  it('counts the resources of one file of 5,000, two of them invalid, in its summary', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-check-count-'));
    try {
      await mkdir(path.join(dir, '.git'));
      await writeStarterProject(dir);
      // Each App takes 6 lines; the 11th and the 4,001st have an empty image (minLength 1).
      const invalid = new Set([10, 4000]);
      const apps = Array.from(
        { length: 5000 },
        (_, i) =>
          `metadata:\n  type: app\n  id: app-${i}\nspec:\n  image: ${invalid.has(i) ? '""' : `x/app-${i}`}\n`,
      );
      await writeFile(path.join(dir, 'manifests/apps.yaml'), apps.join('---\n'));
      const text = await cli(['check'], { cwd: dir });
      expect(text.code).toBe(1);
      const lines = text.stdout.trimEnd().split('\n');
      expect(lines).toContain('manifests: 5,000 resources in 1 file: 4,998 valid, 2 invalid');
      expect(lines.at(-1)).toBe('4,998 passed, 2 failed');
      const github = await cli(['check', '-o', 'github'], {
        cwd: dir,
        env: { GITHUB_WORKSPACE: dir },
      });
      expect(github.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([
        expect.stringMatching(/^::error file=manifests\/apps\.yaml,line=65,col=10,/),
        expect.stringMatching(/^::error file=manifests\/apps\.yaml,line=24005,col=10,/),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps a controller's console.log out of the report on stdout (it goes to stderr)", async () => {
    const dir = await temporaryDirectory('cosi-check-stdout-');
    await writeStarterProject(dir);
    const config = path.join(dir, 'cosi.config.ts');
    const text = await readFile(config, 'utf8');
    await writeFile(
      config,
      text.replace(
        'transform: (_ctx, app, config) => {',
        "transform: (_ctx, app, config) => {\n    console.log('debug: reconciling ' + app.metadata.id);",
      ),
    );
    // The process as users run it: the project runs in a worker thread there.
    for (const format of ['json', 'junit', 'tap']) {
      const run = spawnSync(
        process.execPath,
        [path.join(REPO, 'bin/cosi.js'), 'check', '-o', format],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      );
      const r = { code: run.status, stdout: run.stdout, stderr: run.stderr };
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('debug: reconciling');
      expect(r.stderr).toContain('debug: reconciling');
      if (format === 'json') expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
      else expect(r.stdout).toMatch(format === 'junit' ? /^<\?xml / : /^TAP version 13/);
    }
  });

  it('counts a file that failed whole (not UTF-8) in its summary, in text and JSON', async () => {
    const dir = await temporaryDirectory('cosi-check-whole-');
    await writeStarterProject(dir);
    await writeFile(
      path.join(dir, 'manifests/latin1.yaml'),
      Buffer.from([0x61, 0x3a, 0x20, 0xe9, 0x0a]),
    );
    const text = await cli(['check'], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      'manifests: 2 resources in 2 files: 2 valid, 0 invalid, 1 file failed whole',
    );
    const json = await cli(['check', '-o', 'json'], { cwd: dir });
    expect((JSON.parse(json.stdout) as { resources: unknown }).resources).toMatchObject({
      invalid: 0,
      failedFiles: 1,
    });
  });

  it('counts neither the config nor a missing path as a manifest file in its summary', async () => {
    const dir = await temporaryDirectory('cosi-check-config-file-');
    await writeStarterProject(dir);
    // AppConfig is written by the controller but not defined: an undefined-type warning at the config.
    const configFile = path.join(dir, 'cosi.config.ts');
    const config = await readFile(configFile, 'utf8');
    await writeFile(
      configFile,
      config.replace('definitions: [App, AppConfig]', 'definitions: [App]'),
    );
    const strict = await cli(['check', '--strict'], { cwd: dir });
    expect(strict.stdout).toContain('cosi.config.ts: warning[undefined-type]');
    expect(strict.stdout).toContain('manifests: 2 resources in 1 file: 2 valid, 0 invalid\n');
    const missing = await cli(['check', '-f', 'manifests', '-f', 'nowhere'], { cwd: dir });
    expect(missing.stdout).toContain('manifests: 2 resources in 1 file: 2 valid, 0 invalid\n');
  });

  it('skips a file of no document, which it counted as a pass above the valid resources (review report3 4)', async () => {
    // cert-manager: "13 valid" and "15 passed", for two empty Helm values files.
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-empty-files-'));
    try {
      await writeFile(
        path.join(dir, 'cm.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
      );
      await writeFile(path.join(dir, 'pebble-values.yaml'), '');
      await writeFile(path.join(dir, 'notes.yaml'), '# nothing yet\n---\n');
      const text = await cli(['check', '-f', dir]);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('manifests: 1 resource in 3 files: 1 valid, 0 invalid\n');
      // The ConfigMap and the convergence pass; the two files had nothing to check.
      expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('2 passed, 0 failed, 2 skipped');
      const json = JSON.parse((await cli(['check', '-f', dir, '-o', 'json'])).stdout) as {
        passed: number;
        skipped: number;
        cases: { name: string; skipped?: string }[];
      };
      expect([json.passed, json.skipped]).toEqual([2, 2]);
      expect(
        json.cases.filter((c) => c.skipped !== undefined).map((c) => path.basename(c.name)),
      ).toEqual(['notes.yaml', 'pebble-values.yaml']);
      const junit = await cli(['check', '-f', dir, '-o', 'junit']);
      expect(junit.stdout).toContain(
        'pebble-values.yaml"><skipped message="no document in the file: nothing to check"/>',
      );
      // A file of no document alone still fails as an input with no resource.
      const alone = await cli(['check', '-f', path.join(dir, 'pebble-values.yaml')]);
      expect(alone.code).toBe(1);
      expect(alone.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed, 1 skipped');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each(INVALID)(
    'fails fixtures/invalid/%s with exit 1 and positioned findings',
    async (name) => {
      const r = await cli(['check', '-f', `fixtures/invalid/${name}`]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/error\[[a-z0-9-]+\]/);
      expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(
        /^\d+ passed, [1-9]\d* failed(, \d+ skipped)?$/,
      );
      if (name !== 'empty-input')
        expect(r.stdout).toMatch(new RegExp(`fixtures/invalid/${name}/[^:]+:\\d+:\\d+: error`));
    },
  );

  it('turns warnings into failures with --strict', async () => {
    const plain = await cli(['check', '-f', 'fixtures/invalid/yaml11-boolean']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('warning[yaml11-boolean]');
    const strict = await cli(['check', '-f', 'fixtures/invalid/yaml11-boolean', '--strict']);
    expect(strict.code).toBe(1);
  });

  it('judges a Kubernetes object’s YAML 1.1 scalars as kubectl would: 0755 passes, value: yes fails', async () => {
    const deployment = (env: string, mode: string) =>
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: web}',
        'spec:',
        '  selector: {matchLabels: {app: web}}',
        '  template:',
        '    metadata: {labels: {app: web}}',
        '    spec:',
        '      containers:',
        '        - name: web',
        '          image: nginx',
        `          env: [{name: DEBUG, value: ${env}}]`,
        '          volumeMounts: [{name: scripts, mountPath: /scripts}]',
        `      volumes: [{name: scripts, configMap: {name: s, defaultMode: ${mode}}}]`,
        '',
      ].join('\n');
    // kubectl reads 0755 as 493, a valid mode (YAML 1.2 would make it 755, out of range, and the
    // mount's volume invalid); and yes as true, which a string field refuses.
    const mode = await cli(['check', '-f', '-'], { stdin: deployment('"yes"', '0755') });
    expect(mode.stdout).toContain('<stdin>:14:67: warning[yaml11-octal]: 0755 is the octal 493');
    expect(mode.stdout).not.toContain('error[');
    expect(mode.code).toBe(0);
    expect(
      (await cli(['check', '-f', '-', '--strict'], { stdin: deployment('"yes"', '0755') })).code,
    ).toBe(1);
    const env = await cli(['check', '-f', '-'], { stdin: deployment('yes', '0o755') });
    expect(env.stdout).toContain(
      '<stdin>:12:38: error[schema-violation]: must be string (at /spec/template/spec/containers/0/env/0/value)',
    );
    expect(env.code).toBe(1);
  });

  it('records a golden tree with --update and passes against it', async () => {
    const dir = await goldenDir();
    const update = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '--update']);
    expect(update.code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['.cosi-goldens.json', 'VMs.example.org.yaml']);
    const r = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('expectations: 2 passed, 0 failed');
  });

  it('names on stderr each golden file --update wrote or removed, and none it left as it was', async () => {
    const dir = await temporaryDirectory('cosi-check-update-');
    await writeStarterProject(dir);
    const update = ['check', '--expect', 'expected', '--update'];
    const same = await cli(update, { cwd: dir });
    expect(same.code).toBe(0);
    expect(same.stderr).toBe('');
    const apps = path.join(dir, 'manifests/apps.yaml');
    await writeFile(apps, (await readFile(apps, 'utf8')).replace('replicas: 2', 'replicas: 7'));
    await writeFile(path.join(dir, 'expected/Stale.example.org.yaml'), '');
    const index = path.join(dir, 'expected/.cosi-goldens.json');
    const listed = JSON.parse(await readFile(index, 'utf8')) as { files: string[] };
    await writeFile(index, JSON.stringify({ files: [...listed.files, 'Stale.example.org.yaml'] }));
    const changed = await cli([...update, '-o', 'json'], { cwd: dir });
    expect(changed.code).toBe(0);
    expect(() => JSON.parse(changed.stdout) as unknown).not.toThrow();
    expect(changed.stderr.split('\n')).toEqual([
      'wrote expected/AppConfigs.example.org.yaml',
      'wrote expected/Apps.example.org.yaml',
      'removed expected/Stale.example.org.yaml',
      '',
    ]);
  });

  it('fails on a golden tree that differs, with a readable diff at the expected place', async () => {
    const dir = await goldenDir();
    await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '--update']);
    const file = path.join(dir, 'VMs.example.org.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('cpus: 4', 'cpus: 8'));
    const r = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'error[unexpected-state]: VMs.example.org(staging/db-1) differs from the expectation',
    );
    // At the field that differs: db-1's cpus.
    expect(r.stdout).toMatch(/VMs\.example\.org\.yaml:23:9: error\[unexpected-state\]/);
    expect(r.stdout).toContain('-  cpus: 8');
    expect(r.stdout).toContain('+  cpus: 4');
    expect(r.stdout).toContain('expectations: 1 passed, 1 failed');
    // How to accept a meant change, on stderr (stdout is the report).
    expect(r.stderr).toBe(
      `cosi: 1 resource differs from the golden files in ${dir}: if the change is meant, run the same command with --update to record it\n`,
    );
    const json = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '-o', 'json']);
    expect(json.stderr).toBe('');
  });

  it('reports missing and unexpected resources against the golden tree', async () => {
    const dir = await goldenDir();
    await writeFile(
      path.join(dir, 'extra.yaml'),
      'metadata: { namespace: default, type: VMs.example.org, id: ghost }\nspec: { cpus: 1, image: x }\n',
    );
    const r = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '-o', 'json']);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as {
      cases: { name: string; findings: { code: string }[] }[];
    };
    const codes = Object.fromEntries(
      json.cases.filter((c) => c.findings.length > 0).map((c) => [c.name, c.findings[0]!.code]),
    );
    expect(codes).toEqual({
      'default/VMs.example.org/ghost': 'missing-resource',
      'default/VMs.example.org/web-1': 'unexpected-resource',
      'staging/VMs.example.org/db-1': 'unexpected-resource',
    });
  });

  describe('the golden workflow', () => {
    it('leaves versions and timestamps out of the goldens unless asked', async () => {
      const dir = await goldenDir();
      await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '--update']);
      const plain = await readFile(path.join(dir, 'VMs.example.org.yaml'), 'utf8');
      expect(plain).not.toMatch(/^\s+(version|created|updated):/m);
      expect(plain).toMatch(/^\s+owner:/m);

      const kept = await goldenDir();
      await cli([
        'check',
        '-f',
        'fixtures/minimal',
        '--expect',
        kept,
        '--update',
        '--keep-volatile',
      ]);
      expect(await readFile(path.join(kept, 'VMs.example.org.yaml'), 'utf8')).toMatch(
        /^\s+version: 1$/m,
      );
      // A golden that holds them still matches a comparison that ignores them.
      const r = await cli(['check', '-f', 'fixtures/minimal', '--expect', kept]);
      expect(r.code).toBe(0);
      const strict = await cli([
        'check',
        '-f',
        'fixtures/minimal',
        '--expect',
        dir,
        '--keep-volatile',
      ]);
      expect(strict.code).toBe(1);
    });

    it('refuses to record a run that did not converge', async () => {
      const dir = path.join(await goldenDir(), 'expected');
      const r = await cli([
        'check',
        '-f',
        'fixtures/cli/ping-pong',
        '--max-writes',
        '300',
        '--expect',
        dir,
        '--update',
      ]);
      expect(r.code).toBe(3);
      expect(r.stdout).toContain('error[not-recorded]: not recording');
      await expect(readdir(dir)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('reports a missing expectations directory once, with the hint to record it', async () => {
      const dir = path.join(await goldenDir(), 'nothing-here');
      const r = await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '-o', 'json']);
      expect(r.code).toBe(1);
      const json = JSON.parse(r.stdout) as {
        cases: { check: string; findings: { code: string; message: string }[] }[];
      };
      const expectations = json.cases.filter((c) => c.check === 'expectations');
      expect(expectations.flatMap((c) => c.findings.map((f) => f.code))).toEqual([
        'unreadable-expectations',
      ]);
      expect(expectations[0]?.findings[0]?.message).toContain('--update');
    });
  });

  describe.each([
    ['passing', false],
    ['failing', true],
  ])('a %s golden comparison in each format', (_name, breakIt) => {
    const run = async (format: string) => {
      const dir = await goldenDir();
      await cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '--update']);
      if (breakIt) {
        const file = path.join(dir, 'VMs.example.org.yaml');
        await writeFile(
          file,
          (await readFile(file, 'utf8')).replace('image: debian', 'image: arch'),
        );
      }
      return cli(['check', '-f', 'fixtures/minimal', '--expect', dir, '-o', format]);
    };

    it('json', async () => {
      const r = await run('json');
      expect(r.code).toBe(breakIt ? 1 : 0);
      const json = JSON.parse(r.stdout) as {
        failed: number;
        checks: { check: string; failed: number }[];
      };
      expect(json.failed).toBe(breakIt ? 1 : 0);
      expect(json.checks.find((c) => c.check === 'expectations')?.failed).toBe(breakIt ? 1 : 0);
    });

    it('junit', async () => {
      const r = await run('junit');
      expect(r.stdout).toMatch(/^<\?xml version="1.0"/);
      expect(r.stdout).toContain(
        `<testsuite name="expectations" tests="2" failures="${breakIt ? 1 : 0}" skipped="0">`,
      );
      expect(r.stdout.includes('<failure type="unexpected-state"')).toBe(breakIt);
    });

    it('tap', async () => {
      const r = await run('tap');
      const lines = r.stdout.split('\n');
      expect(lines[0]).toBe('TAP version 13');
      expect(lines[1]).toMatch(/^1\.\.\d+$/);
      expect(
        lines.some((l) => l.startsWith('not ok') && l.includes('default/VMs.example.org/web-1')),
      ).toBe(breakIt);
    });

    it('github', async () => {
      const r = await run('github');
      const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::error'));
      expect(annotations.length).toBe(breakIt ? 1 : 0);
      if (breakIt)
        expect(annotations[0]).toMatch(
          /^::error file=.+VMs\.example\.org\.yaml,line=\d+,col=\d+,title=expectations%3A unexpected-state::/,
        );
      expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
        breakIt ? '5 passed, 1 failed' : '6 passed, 0 failed',
      );
    });

    it('text', async () => {
      const r = await run('text');
      expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
        breakIt ? '5 passed, 1 failed' : '6 passed, 0 failed',
      );
    });
  });

  it('exits 2 for --update without --expect and for an unknown format', async () => {
    expect((await cli(['check', '-f', 'fixtures/minimal', '--update'])).code).toBe(2);
    expect((await cli(['check', '-f', 'fixtures/minimal', '-o', 'xml'])).code).toBe(2);
  });
});

describe('cosi check at the edges of CI', () => {
  it('writes a valid junit and github report even for a config or usage error (exit 2)', async () => {
    const junit = await cli(['check', '-f', 'fixtures/cli/broken-config', '-o', 'junit']);
    expect(junit.code).toBe(2);
    expect(junit.stdout).toMatch(/^<\?xml version="1.0"/);
    expect(junit.stdout).toContain('<failure type="config-error"');
    expect(junit.stderr).toContain('cosi: fixtures/cli/broken-config/cosi.config.ts');

    const github = await cli(['check', '-f', 'fixtures/minimal', '--update', '-o', 'github']);
    expect(github.code).toBe(2);
    expect(github.stdout).toContain(
      '::error file=fixtures/minimal,line=1,title=setup%3A usage-error::usage-error: --update needs --expect',
    );
    expect(github.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');
    // In text, the setup case is named once.
    const text = await cli(['check', '-f', 'fixtures/minimal', '--update']);
    expect(text.stdout.split('\n')[0]).toBe(
      'setup: error[usage-error]: --update needs --expect <dir>',
    );
  });

  it('says a config error once on a terminal, in the text report, and on stderr too when the report goes elsewhere', async () => {
    const broken = ['check', '-f', 'fixtures/cli/broken-config'];
    const line = 'cosi: fixtures/cli/broken-config/cosi.config.ts';
    const terminal = await cli(broken, { isTTY: true, env: { NO_COLOR: '1' } });
    expect(terminal.code).toBe(2);
    expect(terminal.stdout).toContain('fixtures/cli/broken-config/cosi.config.ts');
    expect(terminal.stdout).toContain('error[config-error]');
    expect(terminal.stderr).toBe('');
    const quiet = await cli([...broken, '-q'], { isTTY: true, env: { NO_COLOR: '1' } });
    expect(quiet.stdout).toContain('error[config-error]');
    expect(quiet.stderr).toBe('');
    const piped = await cli(broken);
    expect(piped.stdout).toContain('error[config-error]');
    expect(piped.stderr).toContain(line);
    for (const format of ['json', 'junit', 'github']) {
      const machine = await cli([...broken, '-o', format], { isTTY: true });
      expect(machine.code).toBe(2);
      expect(machine.stderr, format).toContain(line);
    }
  });

  it('writes the report asked for when commander refuses the command line, or no manifests are given', async () => {
    const unknown = await cli(['check', '-o', 'junit', '--bogus', 'fixtures/minimal']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "cosi: unknown option '--bogus'\n(cosi check --help lists its flags)\n",
    );
    expect(unknown.stdout).toContain(
      `<failure type="usage-error" message="unknown option '--bogus'"></failure>`,
    );
    const missing = await cli(['check', '--output=tap', '-f']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain('not ok 1 - setup: setup');
    expect(missing.stdout).toContain("option '-f, --file <path>' argument missing");
    const none = await cli(['check', '-ojson'], { cwd: '/' });
    expect(none.code).toBe(2);
    const json = JSON.parse(none.stdout) as { failed: number; cases: { check: string }[] };
    expect([json.failed, json.cases.map((c) => c.check)]).toEqual([1, ['setup']]);
    // Text is stderr's: the report is for a machine format.
    const text = await cli(['check', '--bogus', 'fixtures/minimal']);
    expect([text.code, text.stdout]).toEqual([2, '']);
    // Commander's errors read as cosi's others: `cosi: ` first, a missing type with a hint.
    const noType = await cli(['get']);
    expect([noType.code, noType.stderr]).toEqual([
      2,
      "cosi: missing required argument 'type' (cosi get rd lists the types)\n",
    ]);
  });

  it('points controller findings at the manifest of the item, or at the config', async () => {
    const r = await cli(['check', '-f', 'fixtures/cli/failing-controller', '-o', 'json']);
    const json = JSON.parse(r.stdout) as {
      cases: { check: string; findings: { code: string; file: string; line: number }[] }[];
    };
    const found = json.cases
      .filter((c) => c.check === 'controllers')
      .flatMap((c) => c.findings)
      .filter((f) => f.code === 'reconcile-failed');
    expect(found.length).toBeGreaterThan(0);
    for (const f of found) {
      expect(f.file).toMatch(/^fixtures\/cli\/failing-controller\/.+\.(yaml|ts)$/);
    }
  });

  it('makes annotation paths relative to GITHUB_WORKSPACE', async () => {
    const r = await cli(['check', '-f', 'fixtures/invalid/unknown-type', '-o', 'github'], {
      env: { GITHUB_WORKSPACE: path.join(REPO, 'fixtures') },
    });
    expect(r.stdout).toMatch(/^::error file=invalid\/unknown-type\//m);
  });
});
