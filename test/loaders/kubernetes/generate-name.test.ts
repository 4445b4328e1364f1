import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (metadata: string) =>
  loadManifests([
    {
      path: 'job.yaml',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n${metadata}data: {a: b}\n`,
    },
  ]).findings;

describe('a document named by metadata.generateName alone (kubectl apply refuses it)', () => {
  it('warns that kubectl apply refuses it, at the generateName', () => {
    expect(
      load('  generateName: migrate-\n').map((f) => [
        f.code,
        f.severity,
        f.line,
        f.col,
        f.pointer,
        f.message,
      ]),
    ).toEqual([
      [
        'generate-name',
        'warning',
        4,
        17,
        '/metadata/generateName',
        'kubectl apply refuses an object without a name ("cannot use generate name with apply"): create it with kubectl create, or give it metadata.name',
      ],
    ]);
  });

  it('says nothing of a generateName beside a name, which apply uses', () => {
    expect(load('  name: migrate\n  generateName: migrate-\n')).toEqual([]);
  });
});
