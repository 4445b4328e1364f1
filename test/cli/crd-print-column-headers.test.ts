import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

/** A CRD whose printer columns are named as cosi's own (Version, Type) and one of priority 1. */
const MANIFESTS = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.org}
spec:
  group: example.org
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      additionalPrinterColumns:
        - {name: Version, type: string, jsonPath: .spec.version}
        - {name: Type, type: string, jsonPath: .spec.type}
        - {name: Paused, type: boolean, jsonPath: .spec.paused, priority: 1}
        - {name: Size, type: integer, jsonPath: .spec.size}
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                version: {type: string}
                type: {type: string}
                paused: {type: boolean}
                size: {type: integer}
---
apiVersion: example.org/v1
kind: Widget
metadata: {name: w, namespace: default}
spec: {version: 3.1.0, type: round, paused: false, size: 2}
`;

function cells(line: string | undefined): string[] {
  return (line ?? '').trim().split(/\s{2,}/);
}

describe("a CRD's printer columns in cosi's tables", () => {
  it("one named as a column of cosi's own is prefixed by its kind, so every header names one column", async () => {
    const r = await cli(['get', 'widget', '-f', '-', '-q'], { stdin: MANIFESTS });
    expect(r.stderr).toBe('');
    const [header, row] = r.stdout.split('\n');
    expect(cells(header)).toEqual([
      'NAMESPACE',
      'TYPE',
      'ID',
      'VERSION',
      'OWNER',
      'PHASE',
      'WIDGET-VERSION',
      'WIDGET-TYPE',
      'SIZE',
    ]);
    expect(cells(row)).toEqual([
      'default',
      'Widget',
      'w',
      '1',
      '<none>',
      'running',
      '3.1.0',
      'round',
      '2',
    ]);
  });

  it('a column of priority above 0 is shown only by -o wide, as kubectl shows it', async () => {
    const r = await cli(['get', 'widget', '-f', '-', '-q', '-o', 'wide'], { stdin: MANIFESTS });
    const [header, row] = r.stdout.split('\n');
    expect(cells(header).slice(6)).toEqual([
      'WIDGET-VERSION',
      'WIDGET-TYPE',
      'PAUSED',
      'SIZE',
      'LABELS',
      'FINALIZERS',
    ]);
    expect(cells(row).slice(6)).toEqual(['3.1.0', 'round', 'false', '2', '<none>', '<none>']);
  });
});
