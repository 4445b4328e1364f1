import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nameFormFile } from '../../src/cli/name-form-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-name-forms-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('name forms kept in a file', () => {
  it('are written by save when names were added, and read by the next run', async () => {
    const file = path.join(dir, 'name-forms.json');
    const first = nameFormFile(file);
    expect(first.get('Hosts')).toBeUndefined();
    first.set('Hosts', { plural: true, singular: 'Host' });
    first.save();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ Hosts: [true, 'Host'] });
    const next = nameFormFile(file);
    expect(next.get('Hosts')).toEqual({ plural: true, singular: 'Host' });
    // Nothing added: nothing written.
    await writeFile(file, '{"Hosts":[true,"Host"],"Extra":[false,"Extra"]}');
    next.save();
    expect(await readFile(file, 'utf8')).toContain('Extra');
  });

  it('take a broken file, or broken entries, as none', async () => {
    const file = path.join(dir, 'name-forms.json');
    await writeFile(file, '{"Hosts":');
    expect(nameFormFile(file).get('Hosts')).toBeUndefined();
    await writeFile(file, '{"Hosts":[true],"VMs":[true,"VM"],"__proto__":[true,"x"]}');
    const store = nameFormFile(file);
    expect(store.get('Hosts')).toBeUndefined();
    expect(store.get('VMs')).toEqual({ plural: true, singular: 'VM' });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('keep nothing without a file', () => {
    const store = nameFormFile(undefined);
    store.set('Hosts', { plural: true, singular: 'Host' });
    expect(store.get('Hosts')).toBeUndefined();
    store.save();
  });
});
