/**
 * `cosi check` on a repository checked without its CRDs: one note under the findings names the
 * kinds no definition defines and the three ways to check them (or skip them), as kubeconform's
 * users know them; each finding alone says only how to write a CRD.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../support/temporary-directory.js';
import { writeBelow } from '../support/write-below.js';
import { cli, REPO } from './run-cli.js';

const object = (apiVersion: string, kind: string, name: string) =>
  `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: { name: ${name}, namespace: web }\nspec: {}\n`;

const repository = async () => {
  const dir = await temporaryDirectory('cosi-missing-crds-');
  const monitoring = 'monitoring.coreos.com/v1';
  await writeBelow(
    dir,
    'monitors.yaml',
    ['a', 'b', 'c'].map((n) => object(monitoring, 'ServiceMonitor', n)).join('---\n'),
  );
  await writeBelow(dir, 'rules.yaml', object(monitoring, 'PrometheusRule', 'r'));
  await writeBelow(
    dir,
    'certs.yaml',
    `${object('cert-manager.io/v1', 'Issuer', 'i')}---\n${object('cert-manager.io/v1', 'Certificate', 'c')}`,
  );
  await writeBelow(
    dir,
    'app.yaml',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: app, namespace: web }\n',
  );
  return dir;
};

const note = (stdout: string) =>
  stdout.split('\n').filter((line) => line.includes('note[missing-crd]'));

describe('the note on kinds no definition defines', () => {
  it('counts the documents and kinds, names the most used, and says what to do', async () => {
    const r = await cli(['check', '.'], { cwd: await repository() });
    expect(note(r.stdout)).toEqual([
      'note[missing-crd]: 6 documents are of 4 kinds no CRD here defines (ServiceMonitor of monitoring.coreos.com/v1: 3, Certificate of cert-manager.io/v1: 1, Issuer of cert-manager.io/v1: 1 and 1 more): give their CRDs with --definitions DIR, JSON Schemas with --schema-location, or skip them with --ignore-unknown-kinds',
    ]);
    expect(r.code).toBe(1);
  });

  it('leaves out the kinds the CRDs given define, and is gone when none is left or with -q', async () => {
    const dir = await repository();
    const crds = path.join(REPO, 'fixtures/real-crds/cert-manager/crds');
    const given = await cli(['check', '.', '--definitions', crds], { cwd: dir });
    expect(note(given.stdout)).toEqual([
      'note[missing-crd]: 4 documents are of 2 kinds no CRD here defines (ServiceMonitor of monitoring.coreos.com/v1: 3, PrometheusRule of monitoring.coreos.com/v1: 1): give their CRDs with --definitions DIR, JSON Schemas with --schema-location, or skip them with --ignore-unknown-kinds',
    ]);
    const skipped = await cli(['check', '.', '--ignore-unknown-kinds'], { cwd: dir });
    expect(note(skipped.stdout)).toEqual([]);
    expect(skipped.code).toBe(0);
    const quiet = await cli(['check', '.', '-q'], { cwd: dir });
    expect(note(quiet.stdout)).toEqual([]);
    expect(quiet.stdout).toContain('error[unknown-type]');
  });
});
