import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

/** A Namespace and a ClusterRole (cluster-scoped) and a ConfigMap in namespace shop. */
const MANIFESTS = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
rules:
  - { apiGroups: [""], resources: [pods], verbs: [get] }
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: c1
  namespace: shop
data: { a: b }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-cluster-scoped-'));
  await writeFile(path.join(dir, 'all.yaml'), MANIFESTS);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The ids a table lists, its second column on (TYPE ID ... without NAMESPACE, or after it). */
const ids = (stdout: string): string[] =>
  stdout
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('TYPE') && !l.startsWith('NAMESPACE'))
    .map((l) => l.split(/ {2,}/))
    .map((cells) => (cells[0] === 'shop' ? cells[2] : cells[1]) ?? '');

describe('cluster-scoped kinds', () => {
  it('get -n lists them whatever the namespace, as kubectl does', async () => {
    const r = await cli(['get', 'ns,clusterrole', '-f', dir, '-n', 'elsewhere', '-q']);
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual(['shop', 'reader']);
    const mixed = await cli(['get', 'cm,ns', '-f', dir, '-n', 'shop', '-q']);
    expect(ids(mixed.stdout)).toEqual(['c1', 'shop']);
    const other = await cli(['get', 'cm,ns', '-f', dir, '-n', 'elsewhere', '-q']);
    expect(ids(other.stdout)).toEqual(['shop']);
  });
});
