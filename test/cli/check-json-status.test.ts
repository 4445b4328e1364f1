import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

/** A case of `check -o json`, as far as these tests read it. */
interface JsonCase {
  readonly name: string;
  readonly failed: boolean;
  readonly resource?: { readonly kind: string; readonly status: string };
}
interface JsonCheck {
  readonly resources: { readonly valid: number; readonly invalid: number };
  readonly cases: readonly JsonCase[];
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-json-status-'));
  // An RGD the load reads as valid, whose CEL a later check refuses (kro's examples/aws/llm:
  // a bool in a string template), and a ConfigMap whose only finding is a YAML 1.1 warning.
  await writeFile(
    path.join(dir, 'rgd.yaml'),
    `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: thing.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Thing
    spec:
      enabled: boolean
  resources:
    - id: config
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: config
        data:
          x: "on-\${schema.spec.enabled}"
`,
  );
  await writeFile(
    path.join(dir, 'cm.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\nimmutable: yes\n',
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The documents' statuses counted, beside the summary's counts. */
function statuses(json: JsonCheck): { valid: number; invalid: number } {
  const of = (s: string) => json.cases.filter((c) => c.resource?.status === s).length;
  return { valid: of('valid'), invalid: of('invalid') };
}

describe("check -o json: a document's status is the summary's (review report3 2)", () => {
  it('says invalid for a document a check after the load failed, as resources.invalid counts it', async () => {
    const r = await cli(['check', '-f', dir, '-o', 'json']);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as JsonCheck;
    const rgd = json.cases.find((c) => c.resource?.kind === 'ResourceGraphDefinition');
    expect(rgd).toMatchObject({ failed: true, resource: { status: 'invalid' } });
    expect(statuses(json)).toEqual({
      valid: json.resources.valid,
      invalid: json.resources.invalid,
    });
  });

  it('says invalid for a document only a warning fails under --strict, and valid without it', async () => {
    const loose = JSON.parse((await cli(['check', '-f', dir, '-o', 'json'])).stdout) as JsonCheck;
    const strict = JSON.parse(
      (await cli(['check', '-f', dir, '-o', 'json', '--strict'])).stdout,
    ) as JsonCheck;
    const flags = (json: JsonCheck) => json.cases.find((c) => c.name.endsWith('ConfigMap flags'));
    expect(flags(loose)).toMatchObject({ failed: false, resource: { status: 'valid' } });
    expect(flags(strict)).toMatchObject({ failed: true, resource: { status: 'invalid' } });
    expect(statuses(strict)).toEqual({
      valid: strict.resources.valid,
      invalid: strict.resources.invalid,
    });
  });
});
