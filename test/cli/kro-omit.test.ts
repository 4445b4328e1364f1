import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cli } from './run-cli.js';

// The RGDs and instances of kro's test/integration/suites/core/omit_test.go (Apache-2.0).
const OMIT_FIELD = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: test-omit
spec:
  schema:
    apiVersion: v1alpha1
    kind: TestOmit
    spec:
      name: string
      optional: string | default=""
  resources:
    - id: configmap
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name}
        data:
          always: present
          optional: '\${schema.spec.optional != "" ? schema.spec.optional : omit()}'
---
apiVersion: kro.run/v1alpha1
kind: TestOmit
metadata: { name: omit-yes }
spec: { name: omit-yes, optional: "" }
---
apiVersion: kro.run/v1alpha1
kind: TestOmit
metadata: { name: omit-no }
spec: { name: omit-no, optional: my-value }
`;

const OMIT_ELEMENT = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: test-omit-array
spec:
  schema:
    apiVersion: v1alpha1
    kind: TestOmitArray
    spec:
      name: string
      optionalArg: string | default=""
  resources:
    - id: pod
      template:
        apiVersion: v1
        kind: Pod
        metadata:
          name: \${schema.spec.name}
        spec:
          containers:
            - name: main
              image: busybox
              command:
                - echo
                - '\${schema.spec.optionalArg != "" ? schema.spec.optionalArg : omit()}'
---
apiVersion: kro.run/v1alpha1
kind: TestOmitArray
metadata: { name: arr-yes }
spec: { name: arr-yes, optionalArg: "" }
---
apiVersion: kro.run/v1alpha1
kind: TestOmitArray
metadata: { name: arr-no }
spec: { name: arr-no, optionalArg: hello }
`;

/** omit() everywhere kro refuses it (pkg/graph/builder.go, validation.go). */
const REFUSED = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: refused
spec:
  schema:
    apiVersion: v1alpha1
    kind: Refused
    spec:
      name: string
      on: boolean | default=true
    status:
      gone: '\${schema.spec.on ? 1 : omit()}'
  resources:
    - id: config
      includeWhen:
        - '\${schema.spec.on ? true : omit()}'
      readyWhen:
        - '\${omit()}'
      forEach:
        - flag: '\${schema.spec.on ? [1] : omit()}'
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: '\${schema.spec.on ? schema.spec.name : omit()}'
        data:
          a: 'a-\${omit()}'
          b: "\${omit()}"
`;

interface Doc {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { containers?: { command?: string[] }[] };
  status?: { state?: string };
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-kro-omit-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

async function applied(files: Record<string, string>): Promise<Doc[]> {
  const r = await cli(['apply', '-f', await tree(files), '-o', 'yaml', '--stable']);
  expect(r.stderr).toMatch(/^converged, 4 resources/m);
  expect(r.code).toBe(0);
  return parseAllDocuments(r.stdout).map((d) => d.toJS() as Doc);
}

const find = (docs: Doc[], kind: string, name: string): Doc | undefined =>
  docs.find((d) => d.kind === kind && d.metadata.name === name);

describe("kro's omit()", { timeout: 30_000 }, () => {
  it('leaves a field out when the expression gives omit(), and writes it otherwise', async () => {
    const docs = await applied({ 'omit.yaml': OMIT_FIELD });
    expect(find(docs, 'ConfigMap', 'omit-yes')?.data).toEqual({ always: 'present' });
    expect(find(docs, 'ConfigMap', 'omit-no')?.data).toEqual({
      always: 'present',
      optional: 'my-value',
    });
    expect(find(docs, 'TestOmit', 'omit-yes')?.status?.state).toBe('ACTIVE');
  });

  it('leaves a list element out when the expression gives omit()', async () => {
    const docs = await applied({ 'omit.yaml': OMIT_ELEMENT });
    const command = (name: string) => find(docs, 'Pod', name)?.spec?.containers?.[0]?.command;
    expect(command('arr-yes')).toEqual(['echo']);
    expect(command('arr-no')).toEqual(['echo', 'hello']);
  });

  it('warns, at the expression, that kro needs its CELOmitFunction gate (off by default)', async () => {
    const r = await cli(['check', '-f', await tree({ 'omit.yaml': OMIT_FIELD })]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /omit\.yaml:21:22: warning\[rgd-feature-gate\]: .*omit\(\) requires kro's CELOmitFunction feature gate, which is off by default \(--feature-gates=CELOmitFunction=true\)/,
    );
    const strict = await cli(['check', '--strict', '-f', await tree({ 'omit.yaml': OMIT_FIELD })]);
    expect(strict.code).toBe(1);
  });

  // Each at its `$`, inside the quotes (issue 32: the column was the quote's).
  it('is refused outside a whole template field, and in metadata.name, at the expression', async () => {
    const r = await cli(['check', '-f', await tree({ 'rgd.yaml': REFUSED })]);
    expect(r.code).toBe(1);
    const refused = r.stdout
      .split('\n')
      .filter((l) => l.includes('error[rgd-bad-expression]'))
      .map((l) => /rgd\.yaml:(\d+:\d+): error\[rgd-bad-expression\]: .*omit\(\) (.*) \(at /.exec(l))
      .map((m) => [m?.[1], m?.[2]]);
    expect(refused).toEqual([
      ['13:14', 'can only be used in resource template expressions, not in the instance status'],
      ['17:12', 'can only be used in resource template expressions, not in includeWhen'],
      ['19:12', 'can only be used in resource template expressions, not in readyWhen'],
      ['21:18', 'can only be used in resource template expressions, not in forEach'],
      [
        '26:18',
        'cannot be used in metadata.name: the field is required and must resolve to a value',
      ],
      ['28:17', 'can only be a whole field\'s value ("${...}"), not part of a string template'],
    ]);
  });
});
