import { describe, expect, it } from 'vitest';
import { objectHeadOf } from '../../src/loaders/object-head.js';

describe('objectHeadOf', () => {
  it("reads the first document's top-level apiVersion and kind, quoted or not, in block or flow style", () => {
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment' };
    expect(objectHeadOf('apiVersion: apps/v1\nkind: Deployment\n')).toEqual(deployment);
    expect(
      objectHeadOf(
        '%YAML 1.2\n# a comment\n---\n"apiVersion": \'apps/v1\' # x\nkind: "Deployment"\n',
      ),
    ).toEqual(deployment);
    expect(objectHeadOf('\ufeffkind: Deployment\r\napiVersion: apps/v1\r\n')).toEqual(deployment);
    expect(objectHeadOf('{apiVersion: apps/v1, kind: Deployment, spec: {}}\n')).toEqual(deployment);
  });

  it('parses the document when a key is there but its value is not a plain string on its line (review gate4 G1)', () => {
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment' };
    expect(objectHeadOf('apiVersion: apps/v1\nkind: !!str Deployment\n')).toEqual(deployment);
    expect(objectHeadOf('apiVersion: apps/v1\nkind:\n  Deployment\nmetadata: {}\n')).toEqual(
      deployment,
    );
    expect(objectHeadOf('? apiVersion\n: apps/v1\nkind: Deployment\n')).toEqual(deployment);
    expect(objectHeadOf('apiVersion: &v apps/v1\nkind: Deployment\n---\nx: [\n')).toEqual(
      deployment,
    );
  });

  it('finds none where they are not both strings at the top level of the first document', () => {
    for (const text of [
      'replicaCount: 1\nimage: nginx\n',
      'apiVersion: v1\n---\nkind: ConfigMap\n',
      'kind: 1\napiVersion: v1\n',
      'kind:\n  name: x\napiVersion: v1\n',
      'kind: [a]\napiVersion: v1\n',
      '- apiVersion: v1\n  kind: ConfigMap\n',
      'spec:\n  apiVersion: v1\n  kind: ConfigMap\n',
      '{apiVersion: v1, kind: [\n',
      '',
    ]) {
      expect(objectHeadOf(text), text).toBeUndefined();
    }
  });

  it('reads a bounded prefix only, in time linear in it', () => {
    // Keys past the first 64 KiB are not looked for.
    expect(objectHeadOf(`${'# pad\n'.repeat(20_000)}apiVersion: v1\nkind: X\n`)).toBeUndefined();
    const start = performance.now();
    objectHeadOf(`kind: a${' \t'.repeat(5_000_000)}`);
    objectHeadOf(`apiVersion: v1\nkind: "${'\\"'.repeat(30_000)}`);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});
