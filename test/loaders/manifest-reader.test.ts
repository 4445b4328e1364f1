import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDefinition } from '../../src/index.js';
import { type Finding, type FindingCode } from '../../src/loaders/finding.js';
import { nodeFileSystem, type ManifestFileSystem } from '../../src/loaders/manifest-file-system.js';
import { readManifests, type ReadResult } from '../../src/loaders/manifest-reader.js';
import { resourceDefinitionDefinition } from '../../src/engine/resource/definition.js';
import { ManifestReader } from '../../src/loaders/manifest-reader.js';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';
import { unblockedAfter } from '../support/unblocked-after.js';

type Where = [FindingCode, string];
const where = (f: Finding): Where => [f.code, f.file];

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));

const DEFINITION = 'metadata: {type: rd}\nspec: {type: VMs.example.org}\n';
const vm = (id: string) => `metadata: {type: vm, id: ${id}}\nspec: {}\n`;

let dir: string;

/** Writes files (creating directories) below the temporary directory. */
async function tree(files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-read-'));
});

afterEach(async () => {
  await chmod(dir, 0o755);
  await rm(dir, { recursive: true, force: true });
});

describe('readManifests', () => {
  it('loads a fixture tree, with paths as given relative to cwd', async () => {
    const result = await readManifests(['minimal'], { cwd: fixtures });
    expect(result.findings).toEqual([]);
    expect(result.files).toEqual(['minimal/definitions.yaml', 'minimal/vms.yaml']);
    expect(result.resources.map((r) => r.source.file)).toEqual([
      'minimal/vms.yaml',
      'minimal/vms.yaml',
    ]);
  });

  it('finds every .yaml and .yml file below a directory, sorted, skipping other, hidden and node_modules files', async () => {
    await tree({
      'definitions.yaml': DEFINITION,
      'b.yml': vm('b'),
      'a.yaml': vm('a'),
      'sub/deeper/c.yaml': vm('c'),
      'notes.txt': 'not: yaml at all: [',
      'README.md': '# readme',
      'x.json': '{}',
      '.hidden/h.yaml': vm('h'),
      '.github/workflows/ci.yml': 'on: push\n',
      'node_modules/m/m.yaml': vm('m'),
    });
    const result = await readManifests(['.'], { cwd: dir });
    expect(result.findings).toEqual([]);
    expect(result.files).toEqual([
      'a.yaml',
      'b.yml',
      'definitions.yaml',
      path.join('sub', 'deeper', 'c.yaml'),
    ]);
    expect(result.resources.map((r) => r.resource.metadata.id)).toEqual(['a', 'b', 'c']);
  });

  it('reads a file given by name whatever its extension', async () => {
    await tree({ 'definitions.yaml': DEFINITION, 'vms.txt': vm('a') });
    const result = await readManifests(['definitions.yaml', 'vms.txt'], { cwd: dir });
    expect(result.findings).toEqual([]);
    expect(result.resources).toHaveLength(1);
  });

  it('reads a file once, however it is reached', async () => {
    await tree({ 'definitions.yaml': DEFINITION, 'sub/a.yaml': vm('a') });
    await symlink(path.join(dir, 'sub', 'a.yaml'), path.join(dir, 'link.yaml'));
    const result = await readManifests(['.', 'sub', 'sub/a.yaml', './sub/'], { cwd: dir });
    expect(result.findings).toEqual([]);
    expect(result.files).toEqual(['definitions.yaml', 'link.yaml']);
    expect(result.resources).toHaveLength(1);
  });

  it('follows symlinked directories, and reports a symlink loop instead of following it', async () => {
    await tree({ 'definitions.yaml': DEFINITION, 'sub/a.yaml': vm('a') });
    await symlink(dir, path.join(dir, 'sub', 'back'));
    await symlink(path.join(dir, 'sub'), path.join(dir, 'alias'));
    const result = await readManifests(['.'], { cwd: dir });
    expect(result.findings.map(where)).toEqual([['symlink-loop', path.join('alias', 'back')]]);
    expect(result.resources).toHaveLength(1);
  });

  it('reports a symlink to a directory that holds the tree as a loop, not walking around the tree (review gate4 G8)', async () => {
    await tree({
      'repo/definitions.yaml': DEFINITION,
      'repo/sub/a.yaml': vm('a'),
      'sibling/b.yaml': vm('b'),
    });
    const repo = path.join(dir, 'repo');
    await symlink('../..', path.join(repo, 'sub', 'up'));
    await symlink(path.parse(dir).root, path.join(repo, 'root'));
    const result = await readManifests(['.'], { cwd: repo });
    expect(result.findings.map(where)).toEqual([
      ['symlink-loop', 'root'],
      ['symlink-loop', path.join('sub', 'up')],
    ]);
    expect(result.files).toEqual(['definitions.yaml', path.join('sub', 'a.yaml')]);
  });

  it('reads no file a symlink or a chainsaw test leads to outside the working directory and the paths named', async () => {
    // A pull request checked in CI: links to what the machine holds, and a test naming it.
    await tree({
      'repo/definitions.yaml': DEFINITION,
      'repo/a.yaml': vm('a'),
      'repo/shared/s.yaml': vm('s'),
      'repo/app/chainsaw-test.yaml': `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata: { name: t }
spec:
  steps:
    - try:
        - apply: { file: ../../secret/token.yaml }
        - apply: { file: ../shared/s.yaml }
`,
      'secret/token.yaml': 'token: hunter2\n',
      'secret/dir/t.yaml': vm('outside'),
    });
    const repo = path.join(dir, 'repo');
    await symlink(path.join(dir, 'secret', 'token.yaml'), path.join(repo, 'leak.yaml'));
    await symlink(path.join(dir, 'secret', 'dir'), path.join(repo, 'outside'));
    // A link inside the working directory is followed, as before.
    await symlink(path.join('..', 'shared', 's.yaml'), path.join(repo, 'app', 'alias.yaml'));
    const walked = await readManifests(['.'], { cwd: repo });
    expect(walked.findings.map(where)).toEqual([
      ['unreadable-file', path.join('..', 'secret', 'token.yaml')],
      ['unreadable-file', 'leak.yaml'],
      ['unreadable-file', 'outside'],
    ]);
    expect(walked.findings[0]?.message).toContain('outside the working directory');
    expect(walked.findings.map((f) => f.message).join('\n')).not.toContain('hunter2');
    // shared/s.yaml, read once, is shown by the first of its paths.
    expect(walked.files).toEqual(['a.yaml', path.join('app', 'alias.yaml'), 'definitions.yaml']);
    // Named on the command line, they are the user's choice: read.
    const named = await readManifests(['definitions.yaml', 'leak.yaml', 'outside'], { cwd: repo });
    expect(named.files).toEqual(['definitions.yaml', 'leak.yaml', path.join('outside', 't.yaml')]);
  });

  it('reports a symlink that points at itself', async () => {
    await tree({ 'definitions.yaml': DEFINITION, 'a.yaml': vm('a') });
    await symlink('loop.yaml', path.join(dir, 'loop.yaml'));
    await symlink('loop', path.join(dir, 'loop'));
    const result = await readManifests(['.', 'loop.yaml'], { cwd: dir });
    expect(result.findings.map(where)).toEqual([
      ['symlink-loop', 'loop'],
      ['symlink-loop', 'loop.yaml'],
      ['symlink-loop', 'loop.yaml'],
    ]);
    expect(result.resources).toHaveLength(1);
  });

  it('reports a manifest that is a dangling symlink, and ignores other dangling links', async () => {
    // Tests run as root, which reads any file whatever its mode: a link to nothing is a manifest
    // that cannot be read on every machine.
    await tree({ 'definitions.yaml': DEFINITION, 'a.yaml': vm('a') });
    await symlink('missing.yaml', path.join(dir, 'gone.yaml'));
    await symlink('missing.txt', path.join(dir, 'gone.txt'));
    const result = await readManifests(['.'], { cwd: dir });
    expect(result.findings.map(where)).toEqual([['unreadable-file', 'gone.yaml']]);
    expect(result.resources).toHaveLength(1);
  });

  it('reports files and directories it may not read, and reads the rest', async () => {
    await tree({
      'definitions.yaml': DEFINITION,
      'a.yaml': vm('a'),
      'b.yaml': vm('b'),
      'locked/c.yaml': vm('c'),
    });
    // chmod 000 does not stop root, so the permission errors come from the file system given.
    const denied = (p: string) =>
      Object.assign(new Error(`EACCES: permission denied, open '${p}'`), { code: 'EACCES' });
    const fs: ManifestFileSystem = {
      ...nodeFileSystem,
      readFile: async (p) =>
        p.endsWith('b.yaml') ? Promise.reject(denied(p)) : nodeFileSystem.readFile(p),
      readdir: async (p) =>
        p.endsWith('locked') ? Promise.reject(denied(p)) : nodeFileSystem.readdir(p),
    };
    const result = await readManifests(['.'], { cwd: dir, fs });
    expect(result.findings.map(where)).toEqual([
      ['unreadable-file', 'b.yaml'],
      ['unreadable-file', 'locked'],
    ]);
    expect(result.files).toEqual(['a.yaml', 'definitions.yaml']);
    expect(result.resources.map((r) => r.resource.metadata.id)).toEqual(['a']);
  });

  it('reports a path that does not exist alone, not with a misleading "no manifest files"', async () => {
    const result = await readManifests(['missing', 'also/missing.yaml'], { cwd: dir });
    expect(result.findings.map((f) => [f.code, f.file, f.line, f.col, f.pointer])).toEqual([
      ['path-not-found', 'also/missing.yaml', 0, 0, ''],
      ['path-not-found', 'missing', 0, 0, ''],
    ]);
    expect(result.files).toEqual([]);
  });

  it('names the path a missing one was likely meant to be, as the type and flag errors do (review firsthour 4)', async () => {
    await tree({ 'manifests/apps.yaml': vm('a'), 'definitions.yaml': DEFINITION });
    const result = await readManifests(
      ['manifest', 'manifest/', 'manifests/app.yaml', 'nothing-like-it', 'no/such/dir'],
      { cwd: dir },
    );
    expect(result.findings.map((f) => [f.file, f.message])).toEqual([
      ['manifest', 'manifest does not exist (did you mean manifests?)'],
      ['manifest/', 'manifest/ does not exist (did you mean manifests/?)'],
      [
        'manifests/app.yaml',
        'manifests/app.yaml does not exist (did you mean manifests/apps.yaml?)',
      ],
      ['no/such/dir', 'no/such/dir does not exist'],
      ['nothing-like-it', 'nothing-like-it does not exist'],
    ]);
  });

  it('reports an empty path (an unset variable) rather than reading the working directory', async () => {
    await tree({ 'a.yaml': vm('a'), 'definitions.yaml': DEFINITION });
    const result = await readManifests([''], { cwd: dir });
    expect(result.findings.map((f) => [f.code, f.file])).toEqual([['path-not-found', '']]);
    expect(result.findings[0]?.message).toContain('empty path');
    expect(result.files).toEqual([]);
  });

  it('merges file findings with manifest findings, sorted by file', async () => {
    await tree({
      'definitions.yaml': DEFINITION,
      'a.yaml': vm('a'),
      'z.yaml': 'metadata: {type: nope, id: z}\n',
    });
    const result = await readManifests(['.', 'b-missing'], { cwd: dir });
    expect(result.findings.map(where)).toEqual([
      ['path-not-found', 'b-missing'],
      ['unknown-type', 'z.yaml'],
    ]);
  });

  it('applies ignore patterns below a directory named outside the working directory, relative to it', async () => {
    await tree({
      'definitions.yaml': DEFINITION,
      'a.yaml': vm('a'),
      'drafts/b.yaml': 'not: [valid',
      'sub/drafts/c.yaml': 'not: [valid',
      'x.cosi-test.yaml': 'name: a scenario\nsteps: []\n',
    });
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'cosi-cwd-'));
    try {
      const result = await readManifests([dir], {
        cwd: elsewhere,
        ignore: ['*.cosi-test.yaml', 'drafts/'],
      });
      expect(result.findings).toEqual([]);
      expect(result.files).toEqual([path.join(dir, 'a.yaml'), path.join(dir, 'definitions.yaml')]);
      // A path anchored at the named directory (`/sub/drafts`) matches there, not at the cwd.
      const anchored = await readManifests([dir], {
        cwd: elsewhere,
        ignore: ['/drafts/', '*.cosi-test.yaml'],
      });
      expect(anchored.files).toContain(path.join(dir, 'sub', 'drafts', 'c.yaml'));
      expect(anchored.files).not.toContain(path.join(dir, 'drafts', 'b.yaml'));
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('reports what a glob matches that is no file, as a walk of the directory does: a link to nothing, a named pipe', async () => {
    await tree({ 'm/definitions.yaml': DEFINITION, 'm/a.yaml': vm('a') });
    await symlink('../moved-away.yaml', path.join(dir, 'm/base.yaml'));
    execFileSync('mkfifo', [path.join(dir, 'm/pipe.yaml')]);
    const walked = await readManifests(['m'], { cwd: dir });
    const globbed = await readManifests(['m/*.yaml'], { cwd: dir });
    const deep = await readManifests(['m/**'], { cwd: dir });
    const expected: Where[] = [
      ['unreadable-file', 'm/base.yaml'],
      ['unreadable-file', 'm/pipe.yaml'],
    ];
    expect(walked.findings.map(where)).toEqual(expected);
    expect(globbed.findings.map(where)).toEqual(expected);
    expect(deep.findings.map(where)).toEqual(expected);
    expect(globbed.files).toEqual(['m/a.yaml', 'm/definitions.yaml']);
    // What the glob does not match stays unsaid.
    const other = await readManifests(['m/a*.yaml', 'm/definitions.yaml'], { cwd: dir });
    expect(other.findings).toEqual([]);
  });

  it('reports a Chart.yaml that is a named pipe as no regular file, without blocking on it (review gate2 1)', async () => {
    await tree({ 'm/definitions.yaml': DEFINITION, 'm/chart/a.yaml': vm('a') });
    const pipe = path.join(dir, 'm/chart/Chart.yaml');
    execFileSync('mkfifo', [pipe]);
    // Deciding whether `m/chart` is a chart read the pipe, which no one writes: for ever.
    const result = await unblockedAfter(readManifests(['m'], { cwd: dir }), pipe);
    expect(result.blocked).toBe(false);
    expect(result.value.findings.map(where)).toEqual([['unreadable-file', 'm/chart/Chart.yaml']]);
    expect(result.value.files).toEqual(['m/chart/a.yaml', 'm/definitions.yaml']);
  });

  it('reports a file replaced by a named pipe after the walk met it, without blocking on it (review gate2 12)', async () => {
    await tree({ 'm/definitions.yaml': DEFINITION, 'm/a.yaml': vm('a') });
    const pipe = path.join(dir, 'm/a.yaml');
    // The walk lists `m` with `a.yaml` a file; then, before it is read, it is a pipe no one writes.
    const fs: ManifestFileSystem = {
      ...nodeFileSystem,
      readdir: async (p) => {
        const entries = await nodeFileSystem.readdir(p);
        await unlink(pipe);
        execFileSync('mkfifo', [pipe]);
        return entries;
      },
    };
    const result = await unblockedAfter(readManifests(['m'], { cwd: dir, fs }), pipe);
    expect(result.blocked).toBe(false);
    expect(result.value.findings.map(where)).toEqual([['unreadable-file', 'm/a.yaml']]);
    expect(result.value.findings[0]?.message).toBe('cannot read m/a.yaml: not a regular file');
  });

  it('walks a directory a glob matches, as the shell-expanded form does; a pattern ending in / matches directories only', async () => {
    await tree({
      'm/definitions.yaml': DEFINITION,
      'm/top.yaml': vm('top'),
      'm/sub/a.yaml': vm('a'),
      'elsewhere/b.yaml': vm('b'),
    });
    await symlink('../elsewhere', path.join(dir, 'm/linked'));
    const expanded = await readManifests(
      ['m/definitions.yaml', 'm/linked', 'm/sub', 'm/top.yaml'],
      {
        cwd: dir,
      },
    );
    const globbed = await readManifests(['m/*'], { cwd: dir });
    expect(globbed.findings).toEqual([]);
    expect(globbed.files).toEqual(expanded.files);
    expect(globbed.files).toEqual([
      'm/definitions.yaml',
      'm/linked/b.yaml',
      'm/sub/a.yaml',
      'm/top.yaml',
    ]);
    const directories = await readManifests(['m/*/'], { cwd: dir });
    expect(directories.files).toEqual(['m/linked/b.yaml', 'm/sub/a.yaml']);
    // `m/**` names m and m/sub: each walked once, each file read once.
    const deep = await readManifests(['m/**'], { cwd: dir });
    expect(deep.findings).toEqual([]);
    expect(deep.files).toEqual(globbed.files);
  });

  it('says a directory or a manifest whose name is not UTF-8 cannot be opened, not that it is a link to nothing', async () => {
    await tree({ 'm/definitions.yaml': DEFINITION });
    const raw = (name: string, byte: number) =>
      Buffer.concat([Buffer.from(path.join(dir, 'm', name)), Buffer.from([byte])]);
    await mkdir(raw('dir', 0xfe));
    await writeFile(Buffer.concat([raw('dir', 0xfe), Buffer.from('/a.yaml')]), vm('a'));
    await writeFile(Buffer.concat([raw('vm', 0xff), Buffer.from('.yaml')]), vm('b'));
    const result = await readManifests(['m'], { cwd: dir });
    expect(result.findings.map(where)).toEqual([
      ['unreadable-file', 'm/dir\ufffd'],
      ['unreadable-file', 'm/vm\ufffd.yaml'],
    ]);
    expect(result.findings.map((f) => f.message)).toEqual([
      'm/dir\ufffd is named in bytes that are not UTF-8 (shown as \ufffd): cosi cannot open it by that name; rename it',
      'm/vm\ufffd.yaml is named in bytes that are not UTF-8 (shown as \ufffd): cosi cannot open it by that name; rename it',
    ]);
  });

  it('keeps absolute paths absolute', async () => {
    await tree({ 'definitions.yaml': DEFINITION, 'a.yaml': vm('a') });
    const result = await readManifests([dir], { cwd: '/' });
    expect(result.files).toEqual([path.join(dir, 'a.yaml'), path.join(dir, 'definitions.yaml')]);
  });
});

const VM_DEFINITION = [
  'metadata: {type: rd, id: vms.example.org}',
  'spec:',
  '  type: VMs.example.org',
  '  schema: {type: object, required: [cpus], properties: {cpus: {type: integer, minimum: 1}}}',
  '',
].join('\n');
const vmWithCpus = (id: string, cpus = 1): string =>
  `metadata: {type: vm, id: ${id}}\nspec: {cpus: ${cpus}}\n`;

/** A read without what it cost, and with its registry as data: what two reads must agree on. */
const outcome = ({ read: _r, parsed: _p, resolved: _s, registry, ...rest }: ReadResult) => ({
  ...rest,
  registry: registry.all(),
});

describe('ManifestReader', () => {
  beforeEach(async () => {
    await tree({
      'defs.yaml': VM_DEFINITION,
      'a.yaml': vmWithCpus('a'),
      'sub/b.yaml': vmWithCpus('b'),
    });
  });

  function countingReader() {
    const readFile = vi.fn((p: string) => nodeFileSystem.readFile(p));
    const parse = vi.fn(parseManifest);
    const reader = new ManifestReader(['.'], {
      cwd: dir,
      fs: { ...nodeFileSystem, readFile },
      parse,
    });
    return { reader, readFile, parse };
  }

  it('reads and parses every file first, as readManifests does', async () => {
    const { reader, readFile } = countingReader();
    const result = await reader.read();
    expect(readFile).toHaveBeenCalledTimes(3);
    expect(result.read).toEqual(['a.yaml', 'defs.yaml', 'sub/b.yaml']);
    expect(result.parsed).toEqual(['a.yaml', 'defs.yaml', 'sub/b.yaml']);
    expect(outcome(result)).toEqual(outcome(await readManifests(['.'], { cwd: dir })));
  });

  it('reads and parses only the files reported changed, and finds new and removed files', async () => {
    const { reader, readFile, parse } = countingReader();
    await reader.read();
    readFile.mockClear();
    parse.mockClear();
    await writeFile(path.join(dir, 'a.yaml'), vmWithCpus('a', 2));
    await writeFile(path.join(dir, 'sub', 'c.yaml'), vmWithCpus('c'));
    await unlink(path.join(dir, 'sub', 'b.yaml'));
    const result = await reader.read([
      path.join(dir, 'a.yaml'),
      path.join(dir, 'sub', 'c.yaml'),
      path.join(dir, 'sub', 'b.yaml'),
    ]);
    expect(result.read).toEqual(['a.yaml', 'sub/c.yaml']);
    expect(readFile).toHaveBeenCalledTimes(2);
    expect(parse).toHaveBeenCalledTimes(2);
    expect(outcome(result)).toEqual(outcome(await readManifests(['.'], { cwd: dir })));
    expect(result.resources.map((r) => r.resource.metadata.id)).toEqual(['a', 'c']);
  });

  it('does not walk the tree again when only the content of loaded files changed', async () => {
    const readdir = vi.fn((p: string) => nodeFileSystem.readdir(p));
    const reader = new ManifestReader(['.'], { cwd: dir, fs: { ...nodeFileSystem, readdir } });
    await reader.read();
    readdir.mockClear();
    await writeFile(path.join(dir, 'a.yaml'), vmWithCpus('a', 2));
    const result = await reader.read([path.join(dir, 'a.yaml')], { contentOnly: true });
    expect(readdir).not.toHaveBeenCalled();
    expect(result.read).toEqual(['a.yaml']);
    expect(outcome(result)).toEqual(outcome(await readManifests(['.'], { cwd: dir })));
    // A path the last read did not load may be new: the tree is walked.
    await writeFile(path.join(dir, 'new.yaml'), vmWithCpus('n'));
    const added = await reader.read([path.join(dir, 'new.yaml')], { contentOnly: true });
    expect(readdir).toHaveBeenCalled();
    expect(added.resources.map((r) => r.resource.metadata.id)).toContain('n');
  });

  it('walks again when a suite.yaml read as a manifest becomes a policy test', async () => {
    const reader = new ManifestReader(['.'], { cwd: dir });
    await writeFile(path.join(dir, 'suite.yaml'), vmWithCpus('s'));
    await reader.read();
    await writeFile(
      path.join(dir, 'suite.yaml'),
      'kind: Suite\napiVersion: test.gatekeeper.sh/v1alpha1\nmetadata: { name: s }\ntests: []\n',
    );
    const result = await reader.read([path.join(dir, 'suite.yaml')], { contentOnly: true });
    expect(result.unrendered.map((u) => [u.path, u.kind])).toContainEqual([
      'suite.yaml',
      'policy-test',
    ]);
    expect(outcome(result)).toEqual(outcome(await readManifests(['.'], { cwd: dir })));
  });

  it('walks again when a values.yaml read as a manifest becomes Helm values', async () => {
    const reader = new ManifestReader(['.'], { cwd: dir });
    await writeFile(
      path.join(dir, 'values.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: v }\n',
    );
    const before = await reader.read();
    expect(before.resources.map((r) => r.resource.metadata.id)).toContain('v');
    await writeFile(path.join(dir, 'values.yaml'), 'replicaCount: 1\n');
    const result = await reader.read([path.join(dir, 'values.yaml')], { contentOnly: true });
    expect(result.unrendered.map((u) => [u.path, u.kind])).toContainEqual([
      'values.yaml',
      'tool-file',
    ]);
    const fresh = await readManifests(['.'], { cwd: dir });
    expect(result.resources.map((r) => r.resource.metadata.id)).toEqual(
      fresh.resources.map((r) => r.resource.metadata.id),
    );
    expect(result.unrendered).toEqual(fresh.unrendered);
  });

  it('resolves only the files of a content-only read and names them as its changes', async () => {
    const reader = new ManifestReader(['.'], { cwd: dir });
    await reader.read();
    for (const cpus of [2, 3]) {
      await writeFile(path.join(dir, 'sub', 'b.yaml'), vmWithCpus('b', cpus));
      const result = await reader.read([path.join(dir, 'sub', 'b.yaml')], { contentOnly: true });
      expect(result.resolved).toEqual(['sub/b.yaml']);
      expect([...(result.changes?.keys() ?? [])]).toEqual(['sub/b.yaml']);
      expect(outcome(result)).toEqual(outcome(await readManifests(['.'], { cwd: dir })));
    }
  });

  it('does not parse a file reported changed whose content is the same', async () => {
    const { reader, readFile, parse } = countingReader();
    await reader.read();
    readFile.mockClear();
    parse.mockClear();
    const result = await reader.read([path.join(dir, 'a.yaml')]);
    expect(readFile).toHaveBeenCalledTimes(1);
    expect(parse).not.toHaveBeenCalled();
    expect(result.parsed).toEqual([]);
  });

  it('gives, after a series of edits, the same result as a one-shot read of the tree', async () => {
    const reader = new ManifestReader(['.'], { cwd: dir });
    await reader.read();
    const edits: [string, string | undefined][] = [
      ['defs.yaml', `${VM_DEFINITION}---\nmetadata: {type: rd}\nspec: {type: Disks.example.org}\n`],
      ['sub/d.yaml', 'metadata: {type: disk, id: d}\nspec: {}\n'],
      ['a.yaml', vmWithCpus('a', 0)],
      ['sub/b.yaml', undefined],
      ['z.yaml', 'metadata: {type: nope, id: z}\n'],
    ];
    for (const [file, text] of edits) {
      const full = path.join(dir, file);
      if (text === undefined) await unlink(full);
      else await writeFile(full, text);
      const incremental = await reader.read([full]);
      const oneShot = await readManifests(['.'], { cwd: dir });
      expect(outcome(incremental)).toEqual(outcome(oneShot));
      expect(oneShot.read).toEqual(oneShot.files);
      expect(incremental.read).toEqual(text === undefined ? [] : [file]);
    }
    const last = await readManifests(['.'], { cwd: dir });
    expect(last.findings.map(where)).toEqual([
      ['schema-violation', 'a.yaml'],
      ['unknown-type', 'z.yaml'],
    ]);
    expect(last.resources.map((r) => r.resource.metadata.id)).toEqual(['d']);
  });

  it('carries the registry it resolved types with: cosi’s definition type, the given ones and the declared ones', async () => {
    const given = createDefinition({ type: 'Hosts.example.org' });
    const result = await readManifests(['.'], { cwd: dir, definitions: [given] });
    expect(result.findings).toEqual([]);
    expect(result.registry.all().map((d) => d.type)).toEqual([
      'Hosts.example.org',
      'ResourceDefinitions.meta.cosi.dev',
      'VMs.example.org',
    ]);
    expect(result.registry.get('ResourceDefinitions.meta.cosi.dev')).toBe(
      resourceDefinitionDefinition,
    );
    expect(result.registry.get('Hosts.example.org')).toBe(given);
    expect(result.registry.resolve('vm')).toBe(result.definitions[0]);
    expect(result.resources.map((r) => r.definition)).toEqual([
      result.registry.resolve('vm'),
      result.registry.resolve('vm'),
    ]);
  });
});
