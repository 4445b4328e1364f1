/**
 * A manifest repository with a Helm chart and kustomize files (fixtures/manifest-repo): `check`
 * reads its manifests and the charts' `crds/`, sets the rest aside and says so in every format,
 * and `apply` counts it. Before, each template, values file, kustomization and patch was a page of
 * errors about `{{ .Values }}` and `patchesStrategicMerge`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliOnce, REPO } from './run-cli.js';
import { runCosi } from '../support/cosi-process.js';

const FIXTURE = 'fixtures/manifest-repo';

describe('check on a repository with a Helm chart and kustomize files', () => {
  it('passes, with a note per chart and kustomization, and counts them with their patches', async () => {
    const r = await cliOnce(['check', FIXTURE]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain(
      `${FIXTURE}/chart: note[helm-chart]: a Helm chart, read for its crds/ only: its templates ` +
        `are manifests once rendered; check them with helm template ${FIXTURE}/chart | cosi check -f -`,
    );
    expect(lines).toContain(
      `${FIXTURE}/overlays/prod/kustomization.yaml: note[kustomization]: a kustomization, not a ` +
        `resource (the files it lists are read as they are); check what it builds with kustomize ` +
        `build ${FIXTURE}/overlays/prod | cosi check -f -`,
    );
    // The files a kustomization uses are counted, not listed.
    expect(r.stdout).not.toContain('note[kustomize-input]');
    expect(lines).toContain(
      'manifests: 6 resources in 5 files: 6 valid, 0 invalid; set aside: 1 Helm chart, ' +
        '2 kustomizations, 4 kustomize patches and configurations',
    );
    expect(r.stdout).not.toContain('error[');
    expect(r.stdout).not.toContain('warning[');
  });

  it('reads the charts’ crds/: the custom resources beside them are checked against them', async () => {
    const r = await cliOnce(['check', FIXTURE, '-o', 'json']);
    const out = JSON.parse(r.stdout) as {
      cases: { resource?: { kind: string; file: string } }[];
      unrendered: { path: string; kind: string; file: string; message: string }[];
    };
    const kinds = out.cases.flatMap((c) => (c.resource ? [c.resource.kind] : []));
    expect(kinds.sort()).toEqual(
      [
        'ConfigMap',
        'CustomResourceDefinition',
        'CustomResourceDefinition',
        'Deployment',
        'Gadget',
        'Widget',
      ].sort(),
    );
    expect(out.unrendered.map((u) => [path.relative(FIXTURE, u.path), u.kind])).toEqual([
      ['base/kustomization.yaml', 'kustomization'],
      ['chart', 'helm-chart'],
      ['overlays/prod/kustomization.yaml', 'kustomization'],
      ['overlays/prod/probes.yaml', 'kustomize-input'],
      ['overlays/prod/replicas.yaml', 'kustomize-input'],
      ['overlays/prod/resources-patch.yaml', 'kustomize-input'],
      ['overlays/prod/web-settings.yaml', 'kustomize-input'],
    ]);
    expect(out.unrendered[1]?.file).toBe(`${FIXTURE}/chart/Chart.yaml`);
  });

  it('a custom resource that breaks a CRD of a chart’s crds/ fails', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-unrendered-cli-'));
    try {
      await mkdir(path.join(dir, 'chart/crds'), { recursive: true });
      await writeFile(
        path.join(dir, 'chart/Chart.yaml'),
        'apiVersion: v2\nname: c\nversion: 1.0.0\n',
      );
      const crd = await import('node:fs/promises').then((fs) =>
        fs.readFile(path.join(REPO, FIXTURE, 'chart/crds/widgets.yaml'), 'utf8'),
      );
      await writeFile(path.join(dir, 'chart/crds/widgets.yaml'), crd);
      await writeFile(
        path.join(dir, 'widget.yaml'),
        'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 0\n',
      );
      const r = await cli(['check', '.'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        'widget.yaml:6:9: error[schema-violation]: Invalid value: 0: spec.size in body should be greater than or equal to 1',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the directories of a chart that Helm does not render, which are not read either', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-unrendered-cli-'));
    try {
      for (const sub of ['templates', 'ci', 'raw', 'files']) {
        await mkdir(path.join(dir, 'deploy', sub), { recursive: true });
      }
      await writeFile(
        path.join(dir, 'deploy/Chart.yaml'),
        'apiVersion: v2\nname: c\nversion: 1.0.0\n',
      );
      await writeFile(path.join(dir, 'deploy/raw/extra.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
      const r = await cli(['check', '.'], { cwd: dir });
      expect(r.stdout).toContain(
        'deploy: note[helm-chart]: a Helm chart, read for its crds/ only: its templates are manifests once rendered; check them with helm template deploy | cosi check -f -; deploy/files/, deploy/raw/ are not read either (name one to check it: cosi check deploy/files)',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--definitions a chart reads its crds/ (and its subcharts’), not its templates', async () => {
    const r = await cli(['check', '-f', '-', '--definitions', `${FIXTURE}/chart`], {
      stdin:
        'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 0}\n---\n' +
        'apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {color: 1}\n',
    });
    expect(r.stdout.split('\n').filter((l) => l.includes('error['))).toEqual([
      '<stdin>:4:14: error[schema-violation]: Invalid value: 0: spec.size in body should be greater than or equal to 1 (at /spec/size)',
      '<stdin>:9:15: error[schema-violation]: Invalid value: "integer": spec.color in body must be of type string: "integer" (at /spec/color)',
    ]);
    expect(r.code).toBe(1);
  });

  it('annotates GitHub with a notice on each chart and kustomization, relative to the workspace', async () => {
    const r = await cli(['check', FIXTURE, '-o', 'github'], {
      env: { GITHUB_WORKSPACE: path.join(REPO, 'fixtures') },
    });
    expect(r.code).toBe(0);
    const notices = r.stdout.split('\n').filter((l) => l.startsWith('::notice '));
    expect(notices).toHaveLength(3);
    expect(notices).toContain(
      '::notice file=manifest-repo/chart/Chart.yaml,line=1,title=set aside%3A helm-chart::' +
        'a Helm chart, read for its crds/ only: its templates are manifests once rendered; check ' +
        `them with helm template ${FIXTURE}/chart | cosi check -f -`,
    );
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([]);
  });

  it('reports them as skipped in JUnit and TAP', async () => {
    const junit = await cliOnce(['check', FIXTURE, '-o', 'junit']);
    expect(junit.stdout).toContain(
      '<testsuites name="cosi check" tests="14" failures="0" skipped="7">',
    );
    expect(junit.stdout).toContain(
      '<testsuite name="set aside" tests="7" failures="0" skipped="7">',
    );
    expect(junit.stdout).toContain(
      `<testcase classname="set aside" name="${FIXTURE}/chart"><skipped message="a Helm chart`,
    );
    const tap = await cliOnce(['check', FIXTURE, '-o', 'tap']);
    const lines = tap.stdout.split('\n');
    expect(lines[1]).toBe('1..14');
    expect(lines).toContain(
      `ok 9 - set aside: ${FIXTURE}/chart # SKIP a Helm chart, read for its crds/ only: its ` +
        `templates are manifests once rendered; check them with helm template ${FIXTURE}/chart | ` +
        'cosi check -f -',
    );
    expect(lines.filter((l) => l.startsWith('not ok'))).toEqual([]);
  });

  it('counts them skipped in every format alike, as JUnit and TAP list them', async () => {
    // Before, JUnit said 14 tests with 7 skipped, TAP planned 14, while JSON, text and github
    // said 7 passed and nothing skipped: a dashboard reading JSON saw nothing left unchecked.
    const junit = await cliOnce(['check', FIXTURE, '-o', 'junit']);
    const root = /<testsuites [^>]*tests="(\d+)" failures="(\d+)" skipped="(\d+)"/.exec(
      junit.stdout,
    );
    expect(root?.slice(1).map(Number)).toEqual([14, 0, 7]);
    const tap = await cliOnce(['check', FIXTURE, '-o', 'tap']);
    const points = tap.stdout.split('\n').filter((l) => /^(not )?ok \d/.test(l));
    expect(points).toHaveLength(14);
    expect(points.filter((l) => / # SKIP/.test(l))).toHaveLength(7);
    const json = JSON.parse((await cliOnce(['check', FIXTURE, '-o', 'json'])).stdout) as {
      passed: number;
      failed: number;
      skipped: number;
      checks: { check: string; passed: number; failed: number; skipped: number }[];
    };
    expect([json.passed, json.failed, json.skipped]).toEqual([7, 0, 7]);
    expect(json.checks.at(-1)).toEqual({ check: 'set aside', passed: 0, failed: 0, skipped: 7 });
    expect(json.checks.reduce((n, c) => n + c.passed + c.failed + c.skipped, 0)).toBe(14);
    const text = await cliOnce(['check', FIXTURE]);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('7 passed, 0 failed, 7 skipped');
    const github = await cli(['check', FIXTURE, '-o', 'github']);
    expect(github.stdout.trimEnd().split('\n').at(-1)).toBe('7 passed, 0 failed, 7 skipped');
    for (const r of [junit, tap, text, github]) expect(r.code).toBe(0);
  });

  it('fails a directory that holds only a chart, saying what was set aside', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-unrendered-cli-'));
    try {
      await mkdir(path.join(dir, 'chart/templates'), { recursive: true });
      await writeFile(
        path.join(dir, 'chart/Chart.yaml'),
        'apiVersion: v2\nname: c\nversion: 1.0.0\n',
      );
      await writeFile(path.join(dir, 'chart/templates/a.yaml'), 'kind: {{ .Values.kind }}\n');
      const only = await cli(['check', '.'], { cwd: dir });
      expect(only.code).toBe(1);
      expect(only.stdout).toContain(
        'manifests (input): error[empty-input]: no manifest files found; set aside as manifests ' +
          'only once rendered: chart (Helm chart)',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists ten charts and kustomizations in text, counts the rest; JSON lists every one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-unrendered-cli-'));
    try {
      for (let i = 0; i < 12; i++) {
        await mkdir(path.join(dir, `app-${String(i).padStart(2, '0')}`));
        await writeFile(
          path.join(dir, `app-${String(i).padStart(2, '0')}/kustomization.yaml`),
          'resources: []\n',
        );
      }
      await writeFile(
        path.join(dir, 'cm.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
      );
      const text = await cli(['check', '.'], { cwd: dir });
      expect(text.code).toBe(0);
      const notes = text.stdout.split('\n').filter((l) => l.includes(': note[kustomization]: '));
      expect(notes.map((l) => l.slice(0, l.indexOf(':')))).toEqual(
        Array.from(
          { length: 10 },
          (_, i) => `app-${String(i).padStart(2, '0')}/kustomization.yaml`,
        ),
      );
      expect(text.stdout).toContain(
        'and 2 more charts and kustomizations set aside (-o json lists them)\n',
      );
      expect(text.stdout).toContain('set aside: 12 kustomizations');
      const json = await cli(['check', '.', '-o', 'json'], { cwd: dir });
      expect((JSON.parse(json.stdout) as { unrendered: unknown[] }).unrendered).toHaveLength(12);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists chainsaw tests among them and counts the files of partial objects they use', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-unrendered-cli-'));
    try {
      for (let i = 0; i < 11; i++) {
        const test = path.join(dir, `tests/t${String(i).padStart(2, '0')}`);
        await mkdir(test, { recursive: true });
        await writeFile(
          path.join(test, 'chainsaw-test.yaml'),
          'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\n' +
            'spec: {steps: [{try: [{apply: {file: cm.yaml}}, {assert: {file: ready.yaml}}]}]}\n',
        );
        await writeFile(
          path.join(test, 'cm.yaml'),
          `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-${i}}\n`,
        );
        // Partial: a Deployment's status alone.
        await writeFile(
          path.join(test, 'ready.yaml'),
          'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nstatus: {readyReplicas: 1}\n',
        );
      }
      const text = await cli(['check', '.', '--no-color'], { cwd: dir });
      expect(text.stdout).toContain(
        'tests/t00/chainsaw-test.yaml: note[chainsaw-test]: a chainsaw test, not a resource: the ' +
          'files it applies are read, those it asserts or patches with are partial objects, set ' +
          'aside; run it with chainsaw test tests/t00\n',
      );
      expect(text.stdout).not.toContain('note[test-assertion]');
      expect(text.stdout).toContain(
        'and 1 more charts, kustomizations and tests set aside (-o json lists them)\n',
      );
      expect(text.stdout).toContain(
        'manifests: 11 resources in 11 files: 11 valid, 0 invalid; set aside: 11 chainsaw ' +
          'tests, 11 test assertions and patches\n',
      );
      expect(text.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('checks what a chart renders from the stream, naming the template of each finding', async () => {
    const rendered = [
      '---',
      '# Source: widgets/templates/service.yaml',
      'apiVersion: v1',
      'kind: Service',
      'metadata: {name: widgets}',
      'spec:',
      '  ports: [{port: http}]',
      '---',
      '# Source: widgets/templates/configmap.yaml',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: widgets}',
      '',
    ].join('\n');
    const r = await cli(['check', '-f', '-'], { stdin: rendered });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '<stdin>:7:18: error[schema-violation]: must be integer (from widgets/templates/service.yaml) (at /spec/ports/0/port)',
    );
  });

  it('apply counts what it set aside on its summary line', async () => {
    const r = await cli(['apply', '-f', FIXTURE, '--stable']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'converged, 4 resources (set aside, not manifests until rendered: 1 Helm chart, 2 kustomizations, ' +
        '4 kustomize patches and configurations)',
    );
  });

  it('the HTML report names them in its summary', async () => {
    const r = await cli(['report', '-f', FIXTURE, '-o', '-']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `<li>set aside, not manifests until rendered: ${FIXTURE}/base/kustomization.yaml ` +
        `(kustomization), ${FIXTURE}/chart (Helm chart), ${FIXTURE}/overlays/prod/kustomization.yaml ` +
        `(kustomization), ${FIXTURE}/overlays/prod/probes.yaml (kustomize patch or configuration)`,
    );
    // And how to check what each chart and kustomization renders, as cosi check's notes say.
    const check = await cli(['check', '-f', FIXTURE]);
    const notes = check.stdout.split('\n').filter((l) => l.includes(': note['));
    expect(notes).toHaveLength(3);
    for (const note of notes) {
      expect(r.stdout).toContain(`<li>${note.replace(/: note\[[^\]]+\]/, '')}</li>`);
    }
    expect(r.stdout).toContain(
      `<li>${FIXTURE}/chart: a Helm chart, read for its crds/ only: its templates are manifests once rendered; check them with helm template ${FIXTURE}/chart | cosi check -f -</li>`,
    );
  });
});

describe('the files read beside the manifests, when a key of theirs is a mapping', () => {
  it("are read without the YAML library's warnings on the process's stderr", async () => {
    // `? {x: 1}` is a key YAML allows and JavaScript objects do not: the YAML library warns of it
    // through Node's process warnings, which a real process prints after cosi's report.
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-mapping-keys-'));
    try {
      const key = '? {x: 1}\n: y\n';
      await writeFile(
        path.join(dir, 'a.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
      );
      await writeFile(
        path.join(dir, 'kustomization.yaml'),
        `resources: [a.yaml]\npatches: [p.yaml]\n${key}`,
      );
      await writeFile(
        path.join(dir, 'kyverno-test.yaml'),
        `apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\npolicies: [a.yaml]\n${key}`,
      );
      await mkdir(path.join(dir, 'e2e'));
      await writeFile(
        path.join(dir, 'e2e/chainsaw-test.yaml'),
        `apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\nspec:\n  steps:\n    - try: [{ assert: { file: b.yaml } }, { apply: { file: c.yaml } }]\n${key}`,
      );
      await writeFile(
        path.join(dir, 'e2e/b.yaml'),
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n${key}`,
      );
      await writeFile(
        path.join(dir, 'e2e/c.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n',
      );
      const r = await runCosi(['check', '.'], dir);
      expect(r.stdout).toContain('set aside: 1 kustomization');
      expect(r.stderr).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
