import { readdirSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

/** Every class of bad input under fixtures/invalid, except the one that only warns. */
const CLASSES = readdirSync(path.join(REPO, 'fixtures/invalid'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'yaml11-boolean')
  .map((e) => e.name)
  .sort();

const FINDING =
  /^(?<file>[^:\s]+):(?<line>\d+):(?<col>\d+): error\[(?<code>[a-z0-9-]+)\]: .+?(?: \(at (?<pointer>\/\S*)\))?$/;

describe('the CLI on every class of bad input', () => {
  it('has a good number of classes to run', () => {
    expect(CLASSES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(CLASSES)(
    'apply stops on fixtures/invalid/%s with exit 1, positioned findings and no output',
    async (name) => {
      const r = await cli(['apply', '-f', `fixtures/invalid/${name}`]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines.at(-1)).toMatch(/^[1-9]\d* errors?, \d+ warnings?$/);
      if (name === 'empty-input') {
        expect(lines[0]).toBe('error[empty-input]: no resources found in 1 file');
        return;
      }
      const findings = lines.slice(0, -1).map((l) => FINDING.exec(l)?.groups);
      expect(findings.every((f) => f !== undefined)).toBe(true);
      for (const f of findings) {
        expect(f?.file?.startsWith(`fixtures/invalid/${name}/`)).toBe(true);
        expect(Number(f?.line)).toBeGreaterThan(0);
        expect(Number(f?.col)).toBeGreaterThan(0);
      }
    },
  );

  it.each(CLASSES)(
    'check fails fixtures/invalid/%s in the github format with annotations on the lines',
    async (name) => {
      const r = await cli(['check', '-f', `fixtures/invalid/${name}`, '-o', 'github']);
      expect(r.code).toBe(1);
      const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::error '));
      expect(annotations.length).toBeGreaterThan(0);
      if (name !== 'empty-input')
        expect(annotations[0]).toMatch(
          /^::error file=fixtures\/invalid\/[^,]+,line=\d+,col=\d+,title=/,
        );
    },
  );
});

describe('a lone file that cannot be read', () => {
  it('is its one finding: no "no manifest files found" beside it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-lone-'));
    try {
      await writeFile(
        path.join(dir, 'latin.yaml'),
        Buffer.from(
          'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: "\xe9"}\n',
          'latin1',
        ),
      );
      const r = await cli(['check', '-f', path.join(dir, 'latin.yaml'), '-o', 'json']);
      const report = JSON.parse(r.stdout) as { cases: { findings: { code: string }[] }[] };
      expect(report.cases.flatMap((c) => c.findings.map((f) => f.code))).toEqual([
        'invalid-encoding',
      ]);
      expect(r.code).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('output details', () => {
  it('never prints the spec of a sensitive type', async () => {
    const yaml = await cli(['apply', '-f', 'fixtures/cli/sensitive', '-o', 'yaml']);
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toContain('id: db-password');
    expect(yaml.stdout).not.toContain('hunter2');
    const table = await cli(['apply', '-f', 'fixtures/cli/sensitive']);
    expect(table.stdout).toMatch(/^NAMESPACE\s+TYPE\s+ID\s+VERSION\s+OWNER\s+PHASE\s+KEY\n/);
    expect(table.stdout).not.toContain('hunter2');
  });

  it('colors only on a terminal, and never with NO_COLOR or --no-color', async () => {
    const ansi = new RegExp(String.fromCharCode(27) + '\\[');
    const args = ['apply', '-f', 'fixtures/minimal', '-o', 'yaml'];
    expect((await cli(args, { isTTY: true })).stderr).toMatch(ansi);
    expect((await cli(args)).stderr).not.toMatch(ansi);
    expect((await cli([...args, '--no-color'], { isTTY: true })).stderr).not.toMatch(ansi);
    expect((await cli(args, { isTTY: true, env: { NO_COLOR: '1' } })).stderr).not.toMatch(ansi);
  });

  it('stops at the --timeout bound of virtual time with exit 3', async () => {
    const r = await cli(['apply', '-f', 'fixtures/cli/failing-controller', '--timeout', '2s']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('did not converge (time bound hit)');
    expect(
      (await cli(['apply', '-f', 'fixtures/cli/failing-controller', '--timeout', 'soon'])).code,
    ).toBe(2);
  });

  it('prints no summary with -q when the run converged', async () => {
    const r = await cli(['apply', '-f', 'fixtures/minimal', '-q']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('cosi check --strict', () => {
  it('warns about spec fields the schema does not declare, at their document, and fails them with --strict', async () => {
    const plain = await cli(['check', '-f', 'fixtures/cli/strict']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(
      'warning[unknown-field]: field /spec/sise is not declared in the schema of Disks.example.org (at /spec/sise)',
    );
    expect(plain.stdout).toContain('(at /spec/labels/color)');
    const strict = await cli(['check', '-f', 'fixtures/cli/strict', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(
      /^fixtures\/cli\/strict\/disks\.yaml:\d+:\d+: warning\[unknown-field\]/m,
    );
  });

  it('points each unknown field at the field itself, not at its document', async () => {
    const r = await cli(['check', '-f', 'fixtures/cli/strict', '--strict']);
    expect(r.stdout).toContain('fixtures/cli/strict/disks.yaml:6:3: warning[unknown-field]');
    expect(r.stdout).toContain('fixtures/cli/strict/disks.yaml:9:5: warning[unknown-field]');
  });

  it('warns about manifest types no controller reads when the project has controllers', async () => {
    const r = await cli([
      'check',
      '-f',
      'fixtures/cli/failing-controller',
      '--config',
      'fixtures/cli/ping-pong/cosi.config.ts',
      '--strict',
      '-o',
      'json',
    ]);
    const json = JSON.parse(r.stdout) as { cases: { findings: { code: string }[] }[] };
    const codes = json.cases.flatMap((c) => c.findings.map((f) => f.code));
    expect(codes).not.toContain('unread-type');
    const unread = await cli([
      'check',
      '-f',
      'fixtures/cli/sensitive',
      '--config',
      'fixtures/cli/ping-pong/cosi.config.ts',
      '--strict',
    ]);
    expect(unread.stdout).toContain(
      'warning[unread-type]: no controller reads Secrets.example.org',
    );
  });

  it('warns about manifests in a namespace no controller reads their type in', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-unread-ns-'));
    try {
      await cp('fixtures/vm-network', dir, { recursive: true });
      await writeFile(
        path.join(dir, 'prod.yaml'),
        'metadata: { type: vm, id: billing, namespace: prod }\nspec: { cpus: 1, image: alpine }\n',
      );
      const r = await cli(['check', '-f', dir, '--strict']);
      expect(r.stdout).toMatch(
        /prod\.yaml:1:1: warning\[unread-type\]: no controller reads VMs\.example\.org in namespace prod \(they read it in default\): resources of this type there have no effect/,
      );
      expect(r.stdout.match(/unread-type/g)).toHaveLength(1);
      expect(r.code).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a List item that is not an object', () => {
  it('is a document of its own, invalid: its finding is not filed under the item before it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-list-'));
    try {
      const file = path.join(dir, 'list.yaml');
      await writeFile(
        file,
        'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n- 42\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n',
      );
      const r = await cli(['check', '-f', file, '-o', 'json']);
      const report = JSON.parse(r.stdout) as {
        resources: { valid: number; invalid: number };
        cases: { name: string; failed: boolean; findings: { code: string; line: number }[] }[];
      };
      expect(report.cases.map((c) => [c.name.replace(/^.*list\.yaml/, ''), c.failed])).toEqual([
        [':4 ConfigMap a', false],
        [':7 (no kind)', true],
        [':8 ConfigMap b', false],
      ]);
      expect(report.cases[1]?.findings).toMatchObject([{ code: 'not-a-mapping', line: 7 }]);
      expect(report.resources).toMatchObject({ valid: 2, invalid: 1 });
      expect(r.code).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
