import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/cli/version.js';
import { cli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-conveniences-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cosi version', () => {
  it('prints the version as text and as JSON, and --version agrees', async () => {
    const text = await cli(['version']);
    expect(text.stdout).toBe(
      `cosi ${VERSION} (engine ${VERSION}, node ${process.version}, ${process.platform}/${process.arch})\n`,
    );
    const json = JSON.parse((await cli(['version', '-o', 'json'])).stdout) as { cosi: string };
    expect(json.cosi).toBe(VERSION);
    expect((await cli(['--version'])).stdout).toBe(`${VERSION}\n`);
  });
});

describe('cosi completion', () => {
  /** What bash completes for the words typed so far, with the generated script sourced. */
  function complete(script: string, words: string[]): string[] {
    const file = path.join(dir, 'cosi.bash');
    const program = [
      `source ${JSON.stringify(file)}`,
      `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')})`,
      `COMP_CWORD=${words.length - 1}`,
      '_cosi',
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    return spawnSync(
      'bash',
      ['-c', `cat > ${JSON.stringify(file)} <<'EOF'\n${script}EOF\n${program}`],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    )
      .stdout.split('\n')
      .filter(Boolean);
  }

  it('completes commands and each command flags in a real bash', async () => {
    const script = (await cli(['completion', 'bash'])).stdout;
    expect(complete(script, ['cosi', 'ch'])).toEqual(['check']);
    expect(complete(script, ['cosi', 'check', '--exp'])).toEqual(['--expect']);
    expect(complete(script, ['cosi', 'apply', '--up'])).toEqual([]);
  });

  it('writes zsh and fish scripts from the same definitions, and refuses other shells', async () => {
    expect((await cli(['completion', 'zsh'])).stdout).toMatch(/^#compdef cosi\n/);
    const fish = (await cli(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c cosi -n '__fish_seen_subcommand_from check' -l strict");
    const bad = await cli(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown shell "tcsh"');
  });
});

describe('choosing what to print', () => {
  it('takes -t repeated in apply', async () => {
    const r = await cli(['apply', '-f', 'fixtures/vm-network', '-t', 'vm', '-t', 'host', '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\bHost\b/);
    expect(r.stdout).toMatch(/\bVM\b/);
    expect(r.stdout).not.toMatch(/\bNetworkConfig\b/);
  });

  it('takes -t comma-separated in apply and graph, as get takes vm,host (review cli3 M4)', async () => {
    const vm = ['-f', 'fixtures/vm-network', '-q'];
    const repeated = await cli(['apply', ...vm, '-t', 'vm', '-t', 'host', '-o', 'name']);
    const listed = await cli(['apply', ...vm, '-t', 'vm,host', '-o', 'name']);
    expect(listed).toMatchObject({ code: 0, stdout: repeated.stdout, stderr: '' });
    const graphRepeated = await cli(['graph', ...vm, '-t', 'vm', '-t', 'host', '-o', 'json']);
    const graphListed = await cli(['graph', ...vm, '-t', 'vm,host', '-o', 'json']);
    expect(graphListed).toMatchObject({ code: 0, stdout: graphRepeated.stdout, stderr: '' });
  });

  it('takes get TYPE,TYPE and get TYPE/ID as kubectl does', async () => {
    const both = await cli(['get', 'vm,host', '-f', 'fixtures/vm-network', '-o', 'json', '-q']);
    const types = new Set(
      (JSON.parse(both.stdout) as { items: { metadata: { type: string } }[] }).items.map(
        (r) => r.metadata.type,
      ),
    );
    expect([...types].sort()).toEqual(['Hosts.example.org', 'VMs.example.org']);
    const one = await cli(['get', 'vm/web-1', '-f', 'fixtures/vm-network', '-o', 'json', '-q']);
    expect((JSON.parse(one.stdout) as { metadata: { id: string } }).metadata.id).toBe('web-1');
  });

  it('takes several TYPE/ID arguments, as kubectl get pod/a svc/b and what -o name prints', async () => {
    const vm = ['-f', 'fixtures/vm-network', '-q'];
    const names = await cli(['get', 'vm', ...vm, '-o', 'name']);
    const again = await cli(['get', ...names.stdout.trim().split('\n'), ...vm, '-o', 'name']);
    expect(again).toMatchObject({ code: 0, stdout: names.stdout, stderr: '' });
    // Grouped by type, in the order the types come; each one not found said, exit 1.
    const mixed = await cli(['get', 'vm/web-1', 'host/node-a', 'vm/nope', 'vm/db-1', ...vm]);
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toMatch(
      /^NAMESPACE +TYPE +ID[^\n]*\ndefault +VM +db-1 [^\n]*\ndefault +VM +web-1 [^\n]*\n\nNAMESPACE[^\n]*\ndefault +Host +node-a /,
    );
    expect(mixed.stderr).toBe('cosi: resource "nope" of type "vm" not found\n');
    // The type of each not found is the one it was asked with.
    const other = await cli(['get', 'vm/web-1', 'host/web-1', ...vm, '-o', 'json']);
    expect(other.code).toBe(1);
    expect(other.stderr).toBe('cosi: resource "web-1" of type "host" not found\n');
    expect((JSON.parse(other.stdout) as { items: unknown[] }).items.length).toBe(1);
    // Several types and an id: each type that lacks it says so, as kubectl get pods,svc foo.
    const types = await cli(['get', 'vm,host', 'web-1', ...vm, '-o', 'name']);
    expect(types).toMatchObject({
      code: 1,
      stdout: 'vms.example.org/web-1\n',
      stderr: 'cosi: resource "web-1" of type "host" not found\n',
    });
    const neither = await cli(['get', 'vm,host', 'nope', ...vm]);
    expect(neither).toMatchObject({ code: 1, stdout: '' });
    expect(neither.stderr).toBe(
      'cosi: resource "nope" of type "vm" not found\ncosi: resource "nope" of type "host" not found\n',
    );
    // The two forms mixed, or half a TYPE/ID, are usage errors that say what to write.
    const both = await cli(['get', 'vm/web-1', 'web-2', ...vm]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('get: web-2: give every resource as TYPE/ID');
    for (const half of ['vm/', '/web-1', 'vm/web-1,host/node-a']) {
      const r = await cli(['get', half, ...vm]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`get: ${half}: expected TYPE/ID`);
    }
  });

  it('reports a type that controllers write but nothing defines, and get still answers it', async () => {
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      `import { createTransformController, defineConfig, defineResource } from 'cosi';
const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });
const Shadow = defineResource<{ cpus: number }>({ type: 'Shadows.example.org' });
export default defineConfig({
  definitions: [VM],
  controllers: [
    createTransformController({
      name: 'ShadowController',
      input: VM,
      output: Shadow,
      mapMetadata: (vm) => Shadow.create(vm.metadata.id),
      transform: (_ctx, vm, out) => {
        out.spec.cpus = vm.spec.cpus;
      },
    }),
  ],
});
`,
    );
    await writeFile(
      path.join(dir, 'vm.yaml'),
      'metadata: { type: vm, id: web }\nspec: { cpus: 2 }\n',
    );
    const applied = await cli(['apply', '-f', '.', '-q'], { cwd: dir });
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain(
      'cosi.config.ts: warning[undefined-type]: Shadows.example.org is written by ShadowController but has no definition',
    );
    const got = await cli(['get', 'shadows.example.org', '-f', '.', '-o', 'json', '-q'], {
      cwd: dir,
    });
    expect(got.code).toBe(0);
    expect(
      (JSON.parse(got.stdout) as { items: { spec: { cpus: number } }[] }).items[0]?.spec.cpus,
    ).toBe(2);
    const strict = await cli(['check', '-f', '.', '--strict'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('warning[undefined-type]');
  });
});
