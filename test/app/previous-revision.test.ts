import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProject } from '../../src/app/run-project.js';
import { cli } from '../cli/run-cli.js';

const run = promisify(execFile);

/** A CRD of Widgets (served at `versions`, the last one stored) whose `size` is immutable. */
function widgetCrd(options: { versions?: string[]; tierDefault?: string } = {}): string {
  const versions = options.versions ?? ['v1'];
  const schema = `
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size:
                  type: string
                  x-kubernetes-validations:
                    - rule: self == oldSelf
                      message: size is immutable
                replicas: { type: integer, maximum: 5 }
                label:
                  type: string
                  x-kubernetes-validations:
                    - rule: self.startsWith('w-')
                      message: a label starts with w-
                color: { type: string }
                zone: { type: string, maxLength: 2 }
                tier:
                  type: string
                  default: ${options.tierDefault ?? 'standard'}
                  x-kubernetes-validations:
                    - rule: self == oldSelf
                      message: tier is immutable`;
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.org
spec:
  group: example.org
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
${versions
  .map(
    (name, i) => `    - name: ${name}
      served: true
      storage: ${i === versions.length - 1}
      schema:${schema}`,
  )
  .join('\n')}
`;
}

/** A Widget `a`; `fields` are more lines of its spec. */
function widget(
  size: string,
  version = 'v1',
  fields: Record<string, string | number> = {},
): string {
  return `apiVersion: example.org/${version}
kind: Widget
metadata:
  name: a
spec:
  size: ${size}
${Object.entries(fields)
  .map(([key, value]) => `  ${key}: ${value}\n`)
  .join('')}`;
}

let dir: string;

async function write(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
}

async function check(files: string[], previous?: string) {
  const run = await runProject({
    cwd: dir,
    files,
    converge: false,
    ...(previous === undefined ? {} : { previous }),
  });
  return run.manifests.findings.map((f) => `${f.file}:${f.line} ${f.code}`);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-previous-revision-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--previous reads the previous revision with the same definitions', () => {
  it('resolves a kind whose CRD is given with -f only in the current tree', async () => {
    await write({
      'current/crds/widgets.yaml': widgetCrd(),
      'current/widgets.yaml': widget('large'),
      'previous/widgets.yaml': widget('small'),
    });
    expect(await check(['current'], 'previous')).toEqual(['current/widgets.yaml:6 cel-violation']);
  });

  it("reads the previous tree through today's CRD: a changed default is no change", async () => {
    // The previous tree's own CRD defaulted tier to basic; today's defaults it to standard. The
    // API server reads the stored object through the CRD in force now, so tier is standard in
    // both revisions and the immutable tier is not reported.
    await write({
      'current/crds/widgets.yaml': widgetCrd(),
      'current/widgets.yaml': widget('small'),
      'previous/crds/widgets.yaml': widgetCrd({ tierDefault: 'basic' }),
      'previous/widgets.yaml': widget('small'),
    });
    expect(await check(['current'], 'previous')).toEqual([]);
  });

  it('still resolves kinds defined only by a CRD of the previous tree', async () => {
    await write({
      'current/crds/widgets.yaml': widgetCrd({ versions: ['v1'] }),
      'current/widgets.yaml': widget('large'),
      'previous/crds/widgets.yaml': widgetCrd({ versions: ['v1beta1', 'v1'] }),
      'previous/widgets.yaml': widget('small', 'v1beta1'),
    });
    expect(await check(['current'], 'previous')).toEqual(['current/widgets.yaml:6 cel-violation']);
  });

  it('matches an object written at another version of its kind as the same object', async () => {
    await write({
      'current/crds/widgets.yaml': widgetCrd({ versions: ['v1beta1', 'v1'] }),
      'current/widgets.yaml': widget('large', 'v1'),
      'previous/widgets.yaml': widget('small', 'v1beta1'),
    });
    expect(await check(['current'], 'previous')).toEqual(['current/widgets.yaml:6 cel-violation']);
  });

  it('reports a resource whose previous revision has a kind nothing defines, not a create', async () => {
    await write({
      'current/crds/widgets.yaml': widgetCrd(),
      'current/widgets.yaml': widget('large'),
      'previous/widgets.yaml': widget('small', 'v1alpha1'),
    });
    expect(await check(['current'], 'previous')).toEqual([
      'current/widgets.yaml:2 previous-unresolved',
    ]);
  });

  it("reads the previous revision's built-in kinds in the run's Kubernetes release", async () => {
    // flowcontrol v1beta3 is served by 1.31 and removed in 1.32: with 1.31 the previous
    // FlowSchema resolves, and is the same object as today's v1 one.
    const flowSchema = (version: string) =>
      `apiVersion: flowcontrol.apiserver.k8s.io/${version}\nkind: FlowSchema\nmetadata: { name: system }\nspec:\n  priorityLevelConfiguration: { name: exempt }\n`;
    await write({
      'current/flow.yaml': flowSchema('v1'),
      'previous/flow.yaml': flowSchema('v1beta3'),
    });
    const findings = async (kubernetesVersion?: '1.31') => {
      const run = await runProject({
        cwd: dir,
        files: ['current'],
        converge: false,
        previous: 'previous',
        ...(kubernetesVersion === undefined ? {} : { kubernetesVersion }),
      });
      return run.manifests.findings.map((f) => `${f.file}:${f.line} ${f.code}`);
    };
    expect(await findings('1.31')).toEqual([]);
    expect(await findings()).toEqual(['current/flow.yaml:2 previous-unresolved']);
  });

  it('warns of a previous revision it could not resolve: cosi check passes, but not --strict', async () => {
    await write({
      'current/crds/widgets.yaml': widgetCrd(),
      'current/widgets.yaml': widget('large'),
      'previous/widgets.yaml': widget('small', 'v1alpha1'),
    });
    const plain = await cli(['check', '-f', 'current', '--previous', 'previous'], { cwd: dir });
    expect(plain.stdout).toContain('warning[previous-unresolved]');
    expect(plain.code).toBe(0);
    const strict = await cli(['check', '-f', 'current', '--previous', 'previous', '--strict'], {
      cwd: dir,
    });
    expect(strict.code).toBe(1);
  });

  describe('with a git revision', () => {
    const git = (...args: string[]) => run('git', args, { cwd: dir });

    beforeEach(async () => {
      await git('init', '-q');
      await git('config', 'user.email', 'ci@example.org');
      await git('config', 'user.name', 'CI');
      await git('config', 'commit.gpgsign', 'false');
    });

    it('resolves a kind whose CRD the revision did not have yet', async () => {
      // The CRD was installed from elsewhere then, and is vendored now.
      await write({ 'manifests/widgets.yaml': widget('small') });
      await git('add', '-A');
      await git('commit', '-q', '-m', 'v1');
      await write({ 'crds/widgets.yaml': widgetCrd(), 'manifests/widgets.yaml': widget('large') });
      await git('add', '-A');
      await git('commit', '-q', '-m', 'v2');
      expect(await check(['crds', 'manifests'], 'HEAD~1')).toEqual([
        'manifests/widgets.yaml:6 cel-violation',
      ]);
      expect(await check(['crds', 'manifests'], 'HEAD')).toEqual([]);
    });

    /** A CRD of Hosts whose address has `rule` (and, optionally, a message expression). */
    const hostCrd = (
      rule: string,
      messageExpression?: string,
    ) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: hosts.example.org
spec:
  group: example.org
  scope: Namespaced
  names: { plural: hosts, kind: Host }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                address:
                  type: string
                  maxLength: 64
                  x-kubernetes-validations:
                    - rule: ${JSON.stringify(rule)}
${messageExpression === undefined ? '                      message: not an IP' : `                      messageExpression: ${JSON.stringify(messageExpression)}`}
`;
    const checkAt = async (release: '1.30', previous?: string) => {
      const run = await runProject({
        cwd: dir,
        files: ['crds'],
        converge: false,
        kubernetesVersion: release,
        ...(previous === undefined ? {} : { previous }),
      });
      return run.manifests.findings.map((f) => `${f.file}:${f.line} ${f.rule ?? f.code}`);
    };
    const commit = async (files: Record<string, string>) => {
      await write(files);
      await git('add', '-A');
      await git('commit', '-q', '-m', 'next');
    };

    it("compiles a rule the previous revision's CRD already had with the release's own libraries", async () => {
      // 1.30 brought the ip library: it compiles a new rule with 1.29's libraries, and a rule
      // that the stored CRD already had, unchanged, with its own.
      await commit({ 'crds/hosts.yaml': hostCrd('isIP(self)') });
      await commit({ 'crds/hosts.yaml': hostCrd('isIP(self)', "'bad: ' + self") });
      expect(await checkAt('1.30')).toEqual(['crds/hosts.yaml:24 rule-library-version']);
      expect(await checkAt('1.30', 'HEAD~1')).toEqual([]);
    });

    it('compiles a changed rule as a new one, with the libraries of the release before', async () => {
      await commit({ 'crds/hosts.yaml': hostCrd('isIP(self)') });
      await commit({ 'crds/hosts.yaml': hostCrd('isIP(self) && ip(self).family() == 4') });
      expect(await checkAt('1.30', 'HEAD~1')).toEqual(['crds/hosts.yaml:24 rule-library-version']);
    });

    /** A CRD of Gizmos that keeps unknown fields (`spec.preserveUnknownFields`) as `keep` says. */
    const gizmoCrd = (keep: boolean) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.example.org
spec:
  group: example.org
  scope: Namespaced
  preserveUnknownFields: ${keep}
  names: { plural: gizmos, kind: Gizmo }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: integer }
`;
    const gizmo =
      'apiVersion: example.org/v1\nkind: Gizmo\nmetadata: { name: g }\nspec: { size: 1, color: red }\n';
    const checkGizmos = async (previous?: string) => {
      const run = await runProject({
        cwd: dir,
        files: ['crds', 'gizmos.yaml'],
        converge: false,
        ...(previous === undefined ? {} : { previous }),
      });
      return run.manifests.findings.map((f) => `${f.file}:${f.line} ${f.rule ?? f.code}`);
    };

    it('lets a CRD keep spec.preserveUnknownFields: true that the previous revision had, and prunes nothing of its objects', async () => {
      await commit({ 'crds/gizmos.yaml': gizmoCrd(true), 'gizmos.yaml': gizmo });
      await commit({ 'gizmos.yaml': gizmo.replace('size: 1', 'size: 2') });
      // A create: v1 refuses it.
      expect(await checkGizmos()).toContain('crds/gizmos.yaml:8 preserve-unknown-fields');
      // An update of a CRD stored with it: kept, and the objects' unknown fields are no error.
      expect(await checkGizmos('HEAD~1')).toEqual([]);
    });

    it('refuses turning spec.preserveUnknownFields on in an update', async () => {
      await commit({ 'crds/gizmos.yaml': gizmoCrd(false), 'gizmos.yaml': gizmo });
      await commit({ 'crds/gizmos.yaml': gizmoCrd(true) });
      expect(await checkGizmos('HEAD~1')).toContain('crds/gizmos.yaml:8 preserve-unknown-fields');
    });

    it('keeps an unchanged message expression beside a changed rule, and not a changed one', async () => {
      const message = "isIP(self) ? 'reserved' : 'not an IP'";
      await commit({ 'crds/hosts.yaml': hostCrd('self.size() > 0', message) });
      await commit({ 'crds/hosts.yaml': hostCrd('self.size() > 1', message) });
      expect(await checkAt('1.30', 'HEAD~1')).toEqual([]);
      await commit({ 'crds/hosts.yaml': hostCrd('self.size() > 1', `${message} + '.'`) });
      expect(await checkAt('1.30', 'HEAD~1')).toEqual(['crds/hosts.yaml:25 rule-library-version']);
    });
  });
});

describe('--previous ratchets what did not change', () => {
  const invalid = { replicas: 9, label: 'x' };

  it('does not report an unchanged invalid field on an update, as it does on a create', async () => {
    await write({
      'current/crds/widgets.yaml': widgetCrd(),
      'current/widgets.yaml': widget('small', 'v1', { ...invalid, color: 'blue' }),
      'previous/widgets.yaml': widget('small', 'v1', { ...invalid, color: 'red' }),
    });
    expect(await check(['current'], 'previous')).toEqual([]);
    // A create: the maximum leaves the types whole, so the label's rule runs beside it.
    expect(await check(['current'])).toEqual([
      'current/widgets.yaml:7 schema-violation',
      'current/widgets.yaml:8 cel-violation',
    ]);
  });

  it('runs the CEL rules when every schema problem ratchets, and reports a changed field', async () => {
    await write({
      'current/crds/widgets.yaml': widgetCrd(),
      'current/widgets.yaml': widget('small', 'v1', invalid),
      'previous/widgets.yaml': widget('small', 'v1', { replicas: 9, label: 'y' }),
    });
    expect(await check(['current'], 'previous')).toEqual(['current/widgets.yaml:8 cel-violation']);
  });

  it('reports a changed invalid field beside an unchanged one', async () => {
    await write({
      'current/crds/widgets.yaml': widgetCrd(),
      'current/widgets.yaml': widget('small', 'v1', { replicas: 9, zone: 'eu-west' }),
      'previous/widgets.yaml': widget('small', 'v1', { replicas: 8, zone: 'eu-west' }),
    });
    expect(await check(['current'], 'previous')).toEqual([
      'current/widgets.yaml:7 schema-violation',
    ]);
  });
});
