import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportData } from '../../src/app/report/report-data.js';
import { NOT_SHOWN } from '../../src/app/shown-spec.js';
import { cli } from './run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-report-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The data a report page embeds (gzipped JSON in base64), read back out of the page. */
function embeddedData(html: string): ReportData {
  const match = /<script type="application\/octet-stream" id="report-data">(.*?)<\/script>/s.exec(
    html,
  );
  expect(match).not.toBeNull();
  return JSON.parse(gunzipSync(Buffer.from(match![1]!, 'base64')).toString('utf8')) as ReportData;
}

const SECRET_PROJECT = {
  'definitions.yaml': `metadata:
  type: ResourceDefinitions.meta.cosi.dev
  id: passwords.example.org
spec:
  type: Passwords.example.org
  sensitivity: sensitive
---
metadata:
  type: ResourceDefinitions.meta.cosi.dev
  id: notes.example.org
spec:
  type: Notes.example.org
`,
  'things.yaml': `metadata:
  type: Passwords.example.org
  id: root
spec:
  value: hunter2
---
metadata:
  type: Notes.example.org
  id: "</script><script>alert(1)</script>"
spec:
  text: "<b>not bold</b>"
`,
};

const MARKUP_FINDING = {
  'vms.yaml': `metadata:
  type: ResourceDefinitions.meta.cosi.dev
  id: vms.example.org
spec:
  type: VMs.example.org
---
metadata:
  type: VMs.example.org
  id: "<img src=x onerror=alert(1)>"
spec: {}
`,
};

async function writeProject(name: string, files: Record<string, string>): Promise<string> {
  const root = path.join(dir, name);
  await mkdir(root, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(root, file), text);
  return root;
}

// Each report lays its graph out with the WebAssembly Graphviz: seconds on a loaded machine.
describe('cosi check --report', { timeout: 30_000 }, () => {
  it('writes the page beside the chosen output, with every finding and its source lines', async () => {
    const file = path.join(dir, 'invalid.html');
    const r = await cli([
      'check',
      '-f',
      'fixtures/invalid/several-problems',
      '-o',
      'json',
      '--report',
      file,
    ]);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as { failed: number };
    expect(json.failed).toBe(2);
    const data = embeddedData(await readFile(file, 'utf8'));
    expect(data.verdict).toBe('failed');
    const first = data.findings[0]!;
    expect(first).toMatchObject({
      code: 'invalid-id',
      file: 'fixtures/invalid/several-problems/vms.yaml',
      line: 3,
      col: 7,
      failure: true,
    });
    // Two lines either side of line 3: lines 1 to 5.
    expect(first.excerpt?.first).toBe(1);
    expect(first.excerpt?.lines[2]).toContain('id: web 1');
    expect(first.excerpt?.lines).toHaveLength(5);
  });

  it('names the file alone for a finding with no line, as the check itself does, not file:0:0', async () => {
    // graph-demo's config writes a type it does not define: a warning about the config file, no line.
    const file = path.join(dir, 'graph-demo.html');
    const r = await cli(['check', '-f', 'fixtures/graph-demo', '--report', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain(
      'fixtures/graph-demo/cosi.config.ts: warning[undefined-type]',
    );
    const html = await readFile(file, 'utf8');
    expect(embeddedData(html).findings[0]).toMatchObject({ code: 'undefined-type', line: 0 });
    expect(html).toContain('<span class="place file">fixtures/graph-demo/cosi.config.ts</span>');
    expect(html).not.toContain(':0:0');
  });

  it('records the run for the timeline and the lineage', async () => {
    const file = path.join(dir, 'vm-network.html');
    const r = await cli(['check', '-f', 'fixtures/vm-network', '--report', file]);
    expect(r.code).toBe(0);
    const data = embeddedData(await readFile(file, 'utf8'));
    expect(data.verdict).toBe('passed');
    expect(data.timeline?.entries.length).toBeGreaterThan(0);
    expect(data.timeline?.entries[0]?.at).toBe(0);
    const placement = data.resources.find((x) => x.key === 'default/Placements.example.org/web-1');
    const from = placement?.from.map(([i, via]) => `${data.resources[i]!.key} ${via}`);
    expect(from).toEqual([
      'default/VMs.example.org/web-1 primary',
      'default/Hosts.example.org/node-a mapped',
    ]);
    // The reconcile that wrote it is the one of that number on the timeline, by its writer.
    const seq = placement?.reconcile;
    const entry = data.timeline?.entries.find((e) => e.seq === seq);
    expect(entry?.controller).toBe('PlacementController');
    expect(entry?.item).toBe('default/VMs.example.org/web-1');
    const vm = data.resources.find((x) => x.key === 'default/VMs.example.org/web-1');
    expect(vm?.source).toBe('fixtures/vm-network/vms.yaml:2');
  });

  it('opens a project with invalid manifests for the report only: the check says the same', async () => {
    const file = path.join(dir, 'partly-invalid.html');
    const trace = path.join(dir, 'partly-invalid.trace.json');
    const args = ['check', '-f', 'fixtures/cli/partly-invalid', '-o', 'json'];
    const plain = await cli(args);
    const reported = await cli([...args, '--report', file, '--trace', trace]);
    expect(reported.code).toBe(1);
    expect(reported.code).toBe(plain.code);
    expect(reported.stdout).toBe(plain.stdout);
    // Nothing ran, so there is nothing to trace.
    await expect(readFile(trace)).rejects.toThrow(/ENOENT/);
    const data = embeddedData(await readFile(file, 'utf8'));
    expect(data.verdict).toBe('failed');
    expect(data.notRun).toMatch(/^The controllers were not run/);
    expect(data.summary.convergence).toBeUndefined();
    expect(data.timeline).toBeUndefined();
    expect(data.graph.controllers.map((c) => c.name).sort()).toEqual([
      'HostStatusController',
      'PlacementController',
      'vmnet.NetworkConfigController',
    ]);
    expect(data.resources.map((x) => x.key)).toEqual([
      'default/Hosts.example.org/node-a',
      'default/Hosts.example.org/node-b',
      'default/VMs.example.org/web-1',
    ]);
  });

  it('leaves unopened, as check does, invalid manifests whose controllers cannot register', async () => {
    // Two exclusive writers of one type: refused when the project opens, which check of invalid
    // manifests never does; opened for the report, it must not turn exit 1 into a setup error.
    const project = path.join(dir, 'conflicting');
    await mkdir(project, { recursive: true });
    const config = await readFile('fixtures/cli/conflicting-controllers/cosi.config.ts', 'utf8');
    const counter = path.resolve('fixtures/cli/counter.js');
    await writeFile(
      path.join(project, 'cosi.config.ts'),
      config.replace("'../counter.js'", JSON.stringify(counter)),
    );
    await writeFile(path.join(project, 'broken.yaml'), 'metadata: { type: counter, id: x\n');
    const file = path.join(project, 'report.html');
    const args = ['check', '-f', project, '--config', path.join(project, 'cosi.config.ts')];
    const plain = await cli(args);
    const reported = await cli([...args, '--report', file]);
    expect(plain.code).toBe(1);
    expect(reported.code).toBe(1);
    expect(reported.stdout).toBe(plain.stdout);
    const data = embeddedData(await readFile(file, 'utf8'));
    expect(data.findings.map((f) => f.code)).toEqual(['yaml-syntax']);
    expect(data.notRun).toBeUndefined();
    expect(data.graph.controllers).toEqual([]);
  });

  it('writes a report that says the check could not run, exit 2, for a bad config', async () => {
    const file = path.join(dir, 'setup.html');
    const r = await cli([
      'check',
      '-f',
      'fixtures/minimal',
      '--config',
      'nope.ts',
      '--report',
      file,
    ]);
    expect(r.code).toBe(2);
    const data = embeddedData(await readFile(file, 'utf8'));
    expect(data.verdict).toBe('not-run');
    expect(data.findings.map((f) => f.code)).toEqual(['config-error']);
  });
});

describe('cosi report', { timeout: 30_000 }, () => {
  it("marks a golden diff's removed and added lines, as check's text colours them", async () => {
    const goldens = path.join(dir, 'goldens-diff');
    await cli(['check', '-f', 'fixtures/minimal', '--expect', goldens, '--update']);
    const file = path.join(goldens, 'VMs.example.org.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('cpus: 4', 'cpus: 8'));
    const out = path.join(dir, 'diff.html');
    const r = await cli(['report', '-f', 'fixtures/minimal', '--expect', goldens, '-o', out]);
    expect(r.code).toBe(1);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('<del>-  cpus: 8</del>');
    expect(html).toContain('<ins>+  cpus: 4</ins>');
    expect(html).not.toMatch(/<(ins|del)>(---|\+\+\+)/);
  });

  it('leaves out the spec of a sensitive type, and keeps markup in manifests as data', async () => {
    const root = await writeProject('secret', SECRET_PROJECT);
    const r = await cli(['report', '-f', root, '-o', '-']);
    expect(r.code).toBe(0);
    const data = embeddedData(r.stdout);
    const password = data.resources.find((x) => x.type === 'Passwords.example.org');
    expect(password?.spec).toBeUndefined();
    const note = data.resources.find((x) => x.type === 'Notes.example.org');
    expect(note?.id).toBe('</script><script>alert(1)</script>');
    expect(note?.spec).toEqual({ text: '<b>not bold</b>' });
  });

  it('keeps back the values of a Kubernetes Secret, not its keys', async () => {
    const root = await writeProject('kubernetes-secret', {
      'secret.yaml': `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
type: Opaque
stringData:
  password: TOPSECRET-PLAIN
data:
  token: VE9QU0VDUkVULUI2NA==
`,
    });
    const r = await cli(['report', '-f', root, '-o', '-']);
    expect(r.code).toBe(0);
    const data = embeddedData(r.stdout);
    expect(JSON.stringify(data)).not.toMatch(/TOPSECRET|VE9QU0VDUkVU/);
    expect(r.stdout).not.toMatch(/TOPSECRET|VE9QU0VDUkVU/);
    const secret = data.resources.find((x) => x.type === 'Secrets.core');
    expect(secret?.spec).toEqual({
      type: 'Opaque',
      stringData: { password: NOT_SHOWN },
      data: { token: NOT_SHOWN },
    });
  });

  it("keeps all of a sensitive type's content out of a finding's source lines, loaded or not", async () => {
    const root = await writeProject('sensitive-finding', {
      'definitions.yaml': `metadata:
  type: ResourceDefinitions.meta.cosi.dev
  id: tokens.example.org
spec:
  type: Tokens.example.org
  sensitivity: sensitive
  schema:
    type: object
    properties:
      key: { type: string, pattern: '^[a-z]+$' }
      level: { type: integer }
`,
      'tokens.yaml': `metadata:
  type: token
  id: api
spec:
  key: TOPSECRET-KEY
  level: "TOPSECRET-LEVEL"
  more: |
    TOPSECRET-BLOCK
---
metadata: { type: Tokens.example.org, id: inline }
spec: { key: TOPSECRET-INLINE, level: x }
---
metadata: { type: Notes.example.org, id: plain }
spec: { text: PLAIN-NOTE }
`,
    });
    const r = await cli(['report', '-f', root, '-o', '-']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('TOPSECRET');
    const findings = embeddedData(r.stdout).findings;
    const at = (line: number) => findings.find((f) => f.line === line)?.excerpt?.lines;
    // The keys and the head stay: they say where the finding is.
    expect(at(5)).toEqual([
      '  id: api',
      'spec:',
      `  key: ${NOT_SHOWN}`,
      `  level: ${NOT_SHOWN}`,
      `  more: ${NOT_SHOWN}`,
    ]);
    expect(at(11)).toEqual([
      '---',
      'metadata: { type: Tokens.example.org, id: inline }',
      `spec: ${NOT_SHOWN}`,
      '---',
      'metadata: { type: Notes.example.org, id: plain }',
    ]);
    // Another type's document, in the same file, is shown as written.
    // Another type's document, in the same file, is shown as written.
    expect(findings.find((f) => f.code === 'unknown-type')?.excerpt?.lines).toEqual([
      `spec: ${NOT_SHOWN}`,
      '---',
      'metadata: { type: Notes.example.org, id: plain }',
      'spec: { text: PLAIN-NOTE }',
      '',
    ]);
  });

  it("keeps a Secret's values out of a finding's source lines too, and shows a ConfigMap's", async () => {
    const root = await writeProject('secret-finding', {
      'secret.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  level: PLAIN-SETTING
typo: 1
---
apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
stringData:
  password: TOPSECRET-PLAIN
  key: |
    TOPSECRET-BLOCK
typo: 1
---
apiVersion: v1
kind: "Secret"
metadata: {name: inline, namespace: default}
data: {token: VE9QU0VDUkVULUI2NA==}
typo: 1
---
apiVersion: v1
metadata: {name: before, namespace: default}
kind: ConfigMapp
---
stringData: {password: TOPSECRET-AFTER}
kind: Secret
apiVersion: v1
metadata: {name: last, namespace: default}
`,
    });
    const r = await cli(['report', '-f', root, '-o', '-']);
    expect(r.code).toBe(1);
    const findings = embeddedData(r.stdout).findings;
    // Three unknown fields and an unknown kind, each shown with the lines around it.
    expect(findings.map((f) => [f.code, f.line])).toEqual([
      ['schema-violation', 8],
      ['schema-violation', 19],
      ['schema-violation', 25],
      ['unknown-type', 29],
    ]);
    expect(r.stdout).not.toMatch(/TOPSECRET|VE9QU0VDUkVU/);
    expect(findings[1]?.excerpt?.lines).toEqual([
      `  key: ${NOT_SHOWN}`,
      `    ${NOT_SHOWN}`,
      'typo: 1',
      '---',
      'apiVersion: v1',
    ]);
    expect(findings[2]?.excerpt?.lines).toEqual([
      'metadata: {name: inline, namespace: default}',
      `data: ${NOT_SHOWN}`,
      'typo: 1',
      '---',
      'apiVersion: v1',
    ]);
    // The lines after a finding may begin a Secret: withheld too.
    expect(findings[3]?.excerpt?.lines).toEqual([
      'apiVersion: v1',
      'metadata: {name: before, namespace: default}',
      'kind: ConfigMapp',
      '---',
      `stringData: ${NOT_SHOWN}`,
    ]);
    // A ConfigMap's data is no secret: shown as written.
    expect(findings[0]?.excerpt?.lines).toContain('  level: PLAIN-SETTING');
  });

  it('escapes what a finding quotes, in its message and its source lines', async () => {
    const root = await writeProject('markup', MARKUP_FINDING);
    const r = await cli(['report', '-f', root, '-o', '-']);
    expect(r.code).toBe(1);
    expect(embeddedData(r.stdout).findings.map((f) => f.code)).toContain('invalid-id');
    expect(r.stdout).not.toContain('<img');
    expect(r.stdout).toContain('id: &quot;&lt;img src=x onerror=alert(1)&gt;&quot;');
  });

  it('writes the control characters a manifest holds as escapes, never raw, so the page is text a terminal can show', async () => {
    const r = await cli(['report', '-f', 'fixtures/invalid/control-character', '-o', '-']);
    expect(r.code).toBe(1);
    // NUL, ESC ]0;pwned BEL: raw, a terminal given `report -o -` would retitle its window.
    // eslint-disable-next-line no-control-regex
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/);
    expect(r.stdout).toContain('image: &quot;debian\\x00\\x1b]0;pwned\\x07&quot;');
  });

  it('is titled by the directory `-f .` names, not by the dot', async () => {
    const r = await cli(['report', '-f', '.', '-o', '-'], {
      cwd: path.resolve('fixtures/vm-network'),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('<title>cosi report: vm-network</title>');
    expect(embeddedData(r.stdout).title).toBe('vm-network');
  });

  it('writes the same page for the same project, run after run', async () => {
    const args = ['report', '-f', 'fixtures/vm-network', '--stable', '-o', '-'];
    const first = await cli(args);
    expect(first.code).toBe(0);
    expect((await cli(args)).stdout).toBe(first.stdout);
  });

  it('says where it wrote the page and with what verdict', async () => {
    const file = path.join(dir, 'out', 'report.html');
    await mkdir(path.dirname(file), { recursive: true });
    const r = await cli(['report', '-f', 'fixtures/vm-network', '-o', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`cosi: passed, 0 failing findings: wrote ${file}\n`);
    expect(await readFile(file, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('says a controller that kept failing failed, naming it and the resource it gave up on, as its exit code 1 does', async () => {
    const file = path.join(dir, 'out', 'failing.html');
    await mkdir(path.dirname(file), { recursive: true });
    const r = await cli(['report', '-f', 'fixtures/cli/failing-controller', '-o', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `cosi: failed (EchoController on default/Counters.test.cosi.dev/start), 1 failing finding: wrote ${file}\n`,
    );
    const html = await readFile(file, 'utf8');
    const data = embeddedData(html);
    expect(data.verdict).toBe('failed');
    expect(data.failures).toEqual([
      {
        controller: 'EchoController',
        item: 'default/Counters.test.cosi.dev/start',
        attempts: 10,
        error: 'cannot echo start: one is a lonely number',
      },
    ]);
    expect(data.resources.find((x) => x.id === 'start')?.failure).toEqual({
      controller: 'EchoController',
      attempts: 10,
      error: 'cannot echo start: one is a lonely number',
    });
    expect(html).toContain('<p id="verdict" class="verdict failed">Failed</p>');
    expect(html).toContain('settled with failing controllers');
    expect(html).not.toContain('not converged');
  });

  it('names a long error in a line under the verdict, holds it whole once, folded, and embeds it cut', async () => {
    const r = await cli(['report', '-f', 'fixtures/cli/long-error', '-o', '-']);
    expect(r.code).toBe(1);
    const html = r.stdout;
    const banner = /<ul id="failures"[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
    const [line, whole] = banner.split('<details>');
    expect(line).toContain('cannot echo start: xxx');
    expect(line).toContain('characters cut]');
    expect(line!.length).toBeLessThan(600);
    expect(whole).toMatch(/^<summary>The whole error \(1,001,020 characters\)<\/summary>/);
    // The error once in the page: the folded whole; every copy the script reads is cut.
    expect(html.match(/x{1000,}/g)).toHaveLength(1);
    const data = JSON.stringify(embeddedData(html));
    expect(data).not.toMatch(/x{1000}/);
    expect(data.length).toBeLessThan(50_000);
    expect(html.length).toBeLessThan(1_100_000);
  });

  it.each(['fixtures/invalid/unknown-kind', 'fixtures/invalid', 'fixtures/cli/failing-controller'])(
    "summarises %s in the lines check's text ends with: its notes, counts and skips",
    async (dir) => {
      const check = await cli(['check', '-f', dir], { env: { NO_COLOR: '1' } });
      const text = check.stdout.trimEnd().split('\n');
      const summary = text.slice(text.lastIndexOf('') + 1);
      const notes = text.filter((l) => l.startsWith('note[missing-crd]'));
      const r = await cli(['report', '-f', dir, '-o', '-']);
      const list = /<ul class="summary">([\s\S]*?)<\/ul>/.exec(r.stdout)?.[1] ?? '';
      const items = [...list.matchAll(/<li>(.*?)<\/li>/g)].map((m) =>
        m[1]!
          .replaceAll('&lt;', '<')
          .replaceAll('&gt;', '>')
          .replaceAll('&quot;', '"')
          .replaceAll('&#39;', "'")
          .replaceAll('&amp;', '&'),
      );
      expect(summary.length).toBeGreaterThan(1);
      for (const line of [...notes, ...summary]) expect(items).toContain(line);
    },
  );

  it("takes no format's name for its page (-o json, out of check's habit), and writes no file named so", async () => {
    const r = await cli(['report', '-f', 'fixtures/vm-network', '-o', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "cosi: -o json: report's -o is the HTML file to write (-o report.html, or - for stdout); for a json report of the check, cosi check -o json\n",
    );
    await expect(readFile(path.join(dir, 'json'))).rejects.toThrow(/ENOENT/);
  });

  it('exits 2 with one line naming a file it cannot write', async () => {
    const file = path.join(dir, 'missing-dir', 'report.html');
    const r = await cli(['report', '-f', 'fixtures/vm-network', '-o', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(file);
  });
});
