/**
 * `.json` manifests holding several objects one after another, as kubectl reads them (its JSON
 * decoder reads values until the input ends, with or without white space between them).
 */
import { cp, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../support/temporary-directory.js';
import { cli } from './run-cli.js';

const cm = (name: string, value: string) =>
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"k":${value}}}`;
const vm = (id: string) =>
  `{"metadata":{"type":"VMs.example.org","id":"${id}"},"spec":{"cpus":1,"image":"debian"}}`;

describe('a .json manifest of objects back to back', () => {
  it('is read one document an object, met in a directory, whatever their shape', async () => {
    const dir = await temporaryDirectory('cosi-json-stream-');
    await cp('fixtures/minimal/definitions.yaml', path.join(dir, 'definitions.yaml'));
    await writeFile(path.join(dir, 'config-maps.json'), `${cm('a', '"1"')}${cm('b', '"2"')}\n`);
    // cosi documents, one a line (jq -c): no apiVersion nor kind to tell them by.
    await writeFile(path.join(dir, 'vms.json'), `${vm('web-1')}\n${vm('web-2')}${vm('web-3')}\n`);
    const r = await cli(['apply', '-f', dir, '-o', 'name', '-q']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'configmap/a',
      'configmap/b',
      'vms.example.org/web-1',
      'vms.example.org/web-2',
      'vms.example.org/web-3',
    ]);
  });

  it("says a later object's mistake at its line and column", async () => {
    const dir = await temporaryDirectory('cosi-json-stream-');
    const line = `${cm('a', '"1"')}${cm('b', '2')}`;
    await writeFile(path.join(dir, 'config-maps.json'), `${line}\n`);
    const r = await cli(['apply', '-f', dir, '-o', 'name']);
    expect(r.code).toBe(1);
    const col = line.lastIndexOf('2}}') + 1;
    expect(r.stderr).toContain(
      `config-maps.json:1:${col}: error[schema-violation]: must be string (at /data/k)`,
    );
    expect(r.stderr).not.toContain('yaml-syntax');
  });
});
