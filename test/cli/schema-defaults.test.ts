/**
 * A cosi type's schema `default`s are filled into a manifest's spec, as `cosi explain` says
 * (`DEFAULT:`) and as the API server fills a custom resource's: what controllers read and what
 * `get` prints have them, and `explain` says where each came from.
 */
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryTree } from '../support/temporary-directory.js';
import { cli } from './run-cli.js';

const DEFINITION = `metadata:
  type: ResourceDefinitions.meta.cosi.dev
  id: apps.example.org
spec:
  type: Apps.example.org
  schema:
    type: object
    required: [image]
    properties:
      image: { type: string }
      replicas: { type: integer, minimum: 1, default: 2 }
      probe:
        type: object
        default: {}
        properties:
          path: { type: string, default: /healthz }
`;

const tree = (apps: string): Promise<string> =>
  temporaryTree('cosi-schema-defaults-', { 'defs.yaml': DEFINITION, 'apps.yaml': apps });

describe('schema defaults of a cosi type', () => {
  it('fills what a manifest leaves out, and keeps what it writes', async () => {
    const dir = await tree(`metadata: { type: app, id: web }
spec: { image: nginx }
---
metadata: { type: app, id: db }
spec: { image: postgres, replicas: 5, probe: { path: /ready } }
`);
    const { code, stdout } = await cli(['get', 'app', '-f', dir, '-o', 'json', '-q']);
    expect(code).toBe(0);
    const specs = Object.fromEntries(
      (JSON.parse(stdout) as { items: { metadata: { id: string }; spec: unknown }[] }).items.map(
        (item) => [item.metadata.id, item.spec],
      ),
    );
    expect(specs).toEqual({
      web: { image: 'nginx', replicas: 2, probe: { path: '/healthz' } },
      db: { image: 'postgres', replicas: 5, probe: { path: '/ready' } },
    });
  });

  it('explain names a filled field as its schema default, at the spec it is filled into', async () => {
    const dir = await tree(`metadata: { type: app, id: web }
spec:
  image: nginx
`);
    const { code, stdout } = await cli(['explain', 'app/web', '-f', dir, '-q']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\/spec\/image {2,}manifest .*apps\.yaml:3:10\n/);
    expect(stdout).toMatch(
      /\/spec\/replicas {2,}manifest .*apps\.yaml:3:3 {2}default of its schema/,
    );
    expect(stdout).toMatch(
      /\/spec\/probe\/path {2,}manifest .*apps\.yaml:3:3 {2}default of its schema/,
    );
  });

  it('checks a filled default against the schema like a written value', async () => {
    const dir = await tree(`metadata: { type: app, id: web }
spec: { image: nginx }
`);
    const bad = DEFINITION.replace('default: 2', 'default: 0');
    await writeFile(path.join(dir, 'defs.yaml'), bad);
    const { code, stdout } = await cli(['check', dir, '-o', 'json']);
    expect(code).toBe(1);
    expect(stdout).toContain('must be >= 1');
    expect(stdout).toContain('/spec/replicas');
  });
});

describe("schema defaults of a CRD's custom resource", () => {
  it('explain names a field the CRD defaulted, and not one a null was kept for', async () => {
    const dir = await temporaryTree('cosi-crd-defaults-', {
      'widgets.yaml': `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.org }
spec:
  group: example.org
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
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
                size: { type: integer, default: 3 }
                color: { type: string }
                limits:
                  type: object
                  default: {}
                  properties: { cpu: { type: string, default: '1' } }
                note: { type: string, nullable: true, default: x }
---
apiVersion: example.org/v1
kind: Widget
metadata: { name: w, namespace: default }
spec:
  color: red
  note: null
`,
    });
    const { code, stdout } = await cli(['explain', 'widget/w', '-f', dir, '-q']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\/spec\/color {2,}manifest .*widgets\.yaml:31:10\n/);
    expect(stdout).toMatch(
      /\/spec\/size {2,}manifest .*widgets\.yaml:31:3 {2}default of its schema/,
    );
    expect(stdout).toMatch(
      /\/spec\/limits\/cpu {2,}manifest .*widgets\.yaml:31:3 {2}default of its schema/,
    );
    // A nullable field's null is kept as written.
    expect(stdout).toMatch(/\/spec\/note {2,}manifest .*widgets\.yaml:32:9\n/);
  });
});
