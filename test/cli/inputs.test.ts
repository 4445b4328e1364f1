import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

const MINIMAL = path.join(REPO, 'fixtures/minimal');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-inputs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The ids of the resources an `apply -o json` printed. */
const ids = (stdout: string): string[] =>
  (JSON.parse(stdout) as { items: { metadata: { id: string } }[] }).items
    .map((r) => r.metadata.id)
    .sort();

describe('manifest inputs, as kubeconform and kubectl take them', () => {
  it('reads a YAML stream from the standard input with -f -', async () => {
    const stdin = await readFile(path.join(MINIMAL, 'vms.yaml'), 'utf8');
    const r = await cli(
      ['apply', '-f', 'fixtures/minimal/definitions.yaml', '-f', '-', '-o', 'json', '-q'],
      { stdin },
    );
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual(['db-1', 'web-1']);
    const bad = await cli(['apply', '-f', '-'], { stdin: 'metadata: { type: nope, id: x }\n' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('<stdin>:1:');
  });

  it('decodes the standard input as strictly as a file', async () => {
    const bytes = Buffer.concat([
      Buffer.from('metadata: { type: vm, id: x }\nspec: { image: "it'),
      Buffer.from([0x92]), // a Windows-1252 apostrophe
      Buffer.from('s" }\n'),
    ]);
    const r = await cli(['apply', '-f', 'fixtures/minimal/definitions.yaml', '-f', '-'], {
      stdin: bytes,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^<stdin>:2:\d+: error\[invalid-encoding\]: the file is not UTF-8/m);
  });

  it('takes paths as arguments', async () => {
    const r = await cli(['check', 'fixtures/minimal']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\d+ passed, 0 failed\n$/);
  });

  it('takes -f repeated and comma-separated', async () => {
    const r = await cli([
      'apply',
      '-f',
      'fixtures/minimal/definitions.yaml,fixtures/minimal/vms.yaml',
      '-o',
      'json',
      '-q',
    ]);
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual(['db-1', 'web-1']);
  });

  it('reports an empty path (an unset variable) rather than reading another tree, with -f or as an argument', async () => {
    await writeFile(
      path.join(dir, 'ok.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
    );
    for (const argv of [
      ['check', ''],
      ['check', '-f', ''],
      ['check', '-f', '', '-f', 'ok.yaml'],
    ]) {
      const r = await cli(argv, { cwd: dir });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stdout).toContain('error[path-not-found]: an empty path ("")');
    }
    // A list's empty entry is not a path.
    expect((await cli(['check', '-f', 'ok.yaml,'], { cwd: dir })).code).toBe(0);
  });

  it('expands globs', async () => {
    const r = await cli(['apply', '-f', 'fixtures/minimal/*.yaml', '-o', 'json', '-q']);
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual(['db-1', 'web-1']);
    const none = await cli(['apply', '-f', 'fixtures/minimal/*.json']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('fixtures/minimal/*.json matches no file');
  });

  it('skips what .cosiignore and --ignore name while walking a directory', async () => {
    await mkdir(path.join(dir, 'manifests'));
    await mkdir(path.join(dir, 'expected'));
    await writeFile(
      path.join(dir, 'manifests/all.yaml'),
      (await readFile(path.join(MINIMAL, 'definitions.yaml'), 'utf8')) +
        '---\n' +
        (await readFile(path.join(MINIMAL, 'vms.yaml'), 'utf8')),
    );
    await writeFile(path.join(dir, 'docker-compose.yml'), 'services: { web: { image: nginx } }\n');
    await writeFile(path.join(dir, 'expected/vms.yaml'), 'not: a manifest\n');
    const unfiltered = await cli(['apply', '-f', '.'], { cwd: dir });
    expect(unfiltered.code).toBe(1);

    await writeFile(path.join(dir, '.cosiignore'), '# not manifests\ndocker-compose.yml\n');
    const r = await cli(['apply', '-f', '.', '--ignore', 'expected/', '-o', 'json', '-q'], {
      cwd: dir,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual(['db-1', 'web-1']);
  });

  it('reports a path that does not exist alone', async () => {
    const r = await cli(['apply', '-f', 'no/such/dir']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[path-not-found]: no/such/dir does not exist');
    expect(r.stderr).not.toContain('no manifest files found');
  });

  it('reads upper-case .YAML and .YML files in directories', async () => {
    await writeFile(
      path.join(dir, 'DEFS.YAML'),
      await readFile(path.join(MINIMAL, 'definitions.yaml'), 'utf8'),
    );
    await writeFile(
      path.join(dir, 'VMS.YML'),
      await readFile(path.join(MINIMAL, 'vms.yaml'), 'utf8'),
    );
    const r = await cli(['apply', '-f', '.', '-o', 'json', '-q'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual(['db-1', 'web-1']);
  });
});

describe('round trips, as kubectl get -o yaml | kubectl apply -f - works', () => {
  it('applies what get -o yaml printed, ignoring the read-only metadata with a note', async () => {
    const printed = await cli(['get', 'vm', '-f', 'fixtures/vm-network', '-o', 'yaml', '-q']);
    await writeFile(path.join(dir, 'vms.yaml'), printed.stdout);
    const hosts = await readFile(path.join(REPO, 'fixtures/vm-network/hosts.yaml'), 'utf8');
    await writeFile(path.join(dir, 'hosts.yaml'), hosts);
    const r = await cli(['apply', '-f', dir, '--config', path.join(REPO, 'fixtures/vm-network')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/vms\.yaml:\d+:\d+: warning\[read-only-metadata\]: metadata\.version/);
    const strict = await cli([
      'check',
      '-f',
      dir,
      '--config',
      path.join(REPO, 'fixtures/vm-network'),
      '--strict',
    ]);
    expect(strict.code).toBe(1);
  });

  it('refuses a controller output given as a manifest, at its file and line', async () => {
    const printed = await cli([
      'get',
      'networkconfig',
      '-f',
      'fixtures/vm-network',
      '-o',
      'yaml',
      '-q',
    ]);
    await writeFile(path.join(dir, 'ncs.yaml'), printed.stdout);
    const r = await cli(
      ['apply', '-f', 'ncs.yaml', '--config', path.join(REPO, 'fixtures/vm-network')],
      {
        cwd: dir,
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^ncs\.yaml:\d+:\d+: error\[controller-output\]: this is the output of controller "vmnet\.NetworkConfigController", not a manifest/m,
    );
  });
});

describe('a manifest that collides with a controller output', () => {
  it('is a finding at the manifest, naming the controller, for a transform and a builder alike', async () => {
    for (const file of ['vms.yaml', 'hosts.yaml']) {
      await writeFile(
        path.join(dir, file),
        await readFile(path.join(REPO, 'fixtures/vm-network', file), 'utf8'),
      );
    }
    await writeFile(
      path.join(dir, 'collide.yaml'),
      'metadata: { type: networkconfig, id: web-1 }\nspec: { bridge: mine, hostname: x }\n---\n' +
        'metadata: { type: hoststatus, id: node-a }\nspec: {}\n',
    );
    const r = await cli(['apply', '-f', '.', '--config', path.join(REPO, 'fixtures/vm-network')], {
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'collide.yaml:1:1: error[output-collision]: NetworkConfigs.example.org(default/web-1) is also written by controller "vmnet.NetworkConfigController"',
    );
    expect(r.stderr).toContain(
      'collide.yaml:4:1: error[output-collision]: HostStatuses.example.org(default/node-a) is also written by controller "HostStatusController"',
    );
  });
});
