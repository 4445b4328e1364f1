import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFieldSelector } from '../../src/cli/field-selector.js';
import { cli } from './run-cli.js';

const MANIFESTS = `apiVersion: v1
kind: Secret
metadata: { name: tls, namespace: shop }
type: kubernetes.io/tls
data: { tls.crt: "", tls.key: "" }
---
apiVersion: v1
kind: Secret
metadata: { name: plain, namespace: shop }
stringData: { a: b }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: settings, namespace: shop }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: settings, namespace: blog }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: other, namespace: blog }
`;

describe('--field-selector, as kubectl get takes it', { timeout: 60_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-field-selector-'));
    await writeFile(path.join(dir, 'objects.yaml'), MANIFESTS);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const names = async (...args: string[]) => {
    const r = await cli(['get', ...args, '-f', dir, '-o', 'name', '-q']);
    return [r.code, r.stdout, r.stderr];
  };

  it('selects by metadata.name and metadata.namespace, = == and !=, all terms holding', async () => {
    expect(await names('cm', '--field-selector', 'metadata.name=settings')).toEqual([
      0,
      'configmap/settings\nconfigmap/settings\n',
      '',
    ]);
    expect(
      await names('cm', '--field-selector', 'metadata.name==settings,metadata.namespace!=shop'),
    ).toEqual([0, 'configmap/settings\n', '']);
    expect(await names('cm', '--field-selector=metadata.namespace=blog', '-o', 'name')).toEqual([
      0,
      'configmap/other\nconfigmap/settings\n',
      '',
    ]);
  });

  it("selects by any field of the -o json document: a Secret's type, a field it lacks as empty", async () => {
    expect(await names('secrets', '--field-selector', 'type=kubernetes.io/tls')).toEqual([
      0,
      'secret/tls\n',
      '',
    ]);
    expect(await names('secrets', '--field-selector', 'type!=kubernetes.io/tls')).toEqual([
      0,
      'secret/plain\n',
      '',
    ]);
    const none = await cli([
      'get',
      'secret',
      '--field-selector',
      'metadata.name=nope',
      '-f',
      dir,
      '-q',
    ]);
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', 'No resources found\n']);
  });

  it('filters -o json too, whose List then holds only what matched', async () => {
    const r = await cli([
      'get',
      'cm',
      '--field-selector',
      'metadata.namespace=shop',
      '-f',
      dir,
      '-o',
      'json',
      '-q',
    ]);
    const list = JSON.parse(r.stdout) as { items: { metadata: { name: string } }[] };
    expect(list.items.map((i) => i.metadata.name)).toEqual(['settings']);
  });

  it('refuses a malformed selector before the run, exit 2', async () => {
    for (const bad of ['metadata.name', 'metadata.name=a=b', '=web', 'metadata.name=a\\x']) {
      const r = await cli(['get', 'cm', '--field-selector', bad, '-f', dir, '-q']);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(/^cosi: --field-selector: invalid selector /);
    }
  });

  it("reads a cosi document's metadata.id as metadata.name, and escapes as kubectl", () => {
    const cosi = { metadata: { type: 'VMs.example.org', id: 'web-1' }, spec: { cpus: 2 } };
    expect(parseFieldSelector('metadata.name=web-1')(cosi)).toBe(true);
    expect(parseFieldSelector('spec.cpus=2')(cosi)).toBe(true);
    expect(parseFieldSelector('spec.cpus!=2')(cosi)).toBe(false);
    expect(parseFieldSelector('spec.image!=debian')(cosi)).toBe(true);
    expect(parseFieldSelector('spec.note=a\\,b\\=c')({ spec: { note: 'a,b=c' } })).toBe(true);
  });
});
