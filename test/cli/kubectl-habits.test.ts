import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStarterProject } from '../../src/app/init/write-starter-project.js';
import { runCosi } from '../support/cosi-process.js';
import { cli, REPO } from './run-cli.js';

const EXAMPLE = ['-f', 'fixtures/vm-network', '-q'];

describe('cosi get takes kubectl habits', { timeout: 60_000 }, () => {
  it('--sort-by orders by a JSONPath, numbers by value, given with or without braces', async () => {
    const byCpus = await cli(['get', 'vm', ...EXAMPLE, '--sort-by', '.spec.cpus', '-o', 'name']);
    expect(byCpus.stdout).toBe(
      'vms.example.org/web-1\nvms.example.org/web-2\nvms.example.org/db-1\n',
    );
    const byImage = await cli([
      'get',
      'vm',
      ...EXAMPLE,
      '--sort-by',
      '{.spec.image}',
      '-o',
      'name',
    ]);
    expect(byImage.stdout).toBe(
      'vms.example.org/web-1\nvms.example.org/web-2\nvms.example.org/db-1\n',
    );
    const byId = await cli(['get', 'vm', ...EXAMPLE, '--sort-by', '.metadata.id', '-o', 'name']);
    expect(byId.stdout).toBe(
      'vms.example.org/db-1\nvms.example.org/web-1\nvms.example.org/web-2\n',
    );
  });

  it("a Kubernetes kind nothing here uses finds no resources, by any of kubectl's names; a cluster-scoped one's table has no NAMESPACE", async () => {
    for (const name of [
      'sa',
      'serviceaccounts',
      'ServiceAccount',
      'clusterroles.rbac.authorization.k8s.io',
    ]) {
      const none = await cli(['get', name, ...EXAMPLE]);
      expect(none.code).toBe(0);
      expect(none.stdout).toBe('');
      expect(none.stderr).toBe('No resources found\n');
    }
    const typo = await cli(['get', 'serviceacount', ...EXAMPLE]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'resource type "serviceacount" is not registered (did you mean the Kubernetes kind "ServiceAccount"?)',
    );
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-cluster-scoped-'));
    try {
      await writeFile(
        path.join(dir, 'rbac.yaml'),
        'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: bot, namespace: ops}\n',
      );
      const table = await cli(['get', 'clusterrole,sa', '-f', dir, '-q']);
      expect(table.stdout.split('\n').map((line) => line.split(/\s+/)[0])).toEqual([
        'TYPE',
        'ClusterRole',
        '',
        'NAMESPACE',
        'ops',
        '',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("suggests the project's own type a name was cut short of, and names a Kubernetes kind as one", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-did-you-mean-'));
    try {
      await mkdir(path.join(dir, '.git'));
      await writeStarterProject(dir);
      // `ap` is as near to AppConfig's alias `ac` as to `app`.
      const ap = await cli(['get', 'ap'], { cwd: dir });
      expect(ap.stderr).toContain('resource type "ap" is not registered (did you mean "app"?)');
      const nope = await cli(['get', 'nope'], { cwd: dir });
      expect(nope.stderr).toContain(
        'resource type "nope" is not registered (did you mean the Kubernetes kind "Node"?)',
      );
      const apps = path.join(dir, 'manifests/apps.yaml');
      await writeFile(apps, (await readFile(apps, 'utf8')).replace('type: app\n', 'type: ap\n'));
      const check = await cli(['check'], { cwd: dir });
      expect(check.stdout).toContain('the type "ap" is not defined (did you mean "app"?)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('takes --sort-by and custom-columns paths in every form kubectl relaxes: spec.cpus, .spec.cpus, {spec.cpus}', async () => {
    const orders = [];
    for (const form of ['spec.cpus', '.spec.cpus', '{spec.cpus}', '{.spec.cpus}']) {
      const sorted = await cli(['get', 'vm', ...EXAMPLE, '--sort-by', form, '-o', 'name', '-q']);
      expect(sorted.code).toBe(0);
      orders.push(sorted.stdout);
    }
    expect(new Set(orders).size).toBe(1);
    expect(orders[0]?.trimEnd().split('\n').at(-1)).toBe('vms.example.org/db-1');
    const columns = await cli([
      'get',
      'vm',
      ...EXAMPLE,
      '-o',
      'custom-columns=ID:metadata.id',
      '-q',
    ]);
    expect(columns.stdout.split('\n').slice(0, 2)).toEqual(['ID', 'db-1']);
    const neither = await cli(['get', 'vm', ...EXAMPLE, '--sort-by', '{.a}{.b}']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain(
      `--sort-by: unexpected path "{.a}{.b}": expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'`,
    );
  });

  it("-o json of a list is kubectl's kind: List, whose items are what -o jsonpath='{.items[*]}' addresses; one asked for by id is the object", async () => {
    type List = { apiVersion: string; kind: string; items: { metadata: { id: string } }[] };
    for (const command of ['get', 'apply']) {
      const args = command === 'get' ? ['get', 'vm'] : ['apply', '-t', 'vm'];
      const json = await cli([...args, ...EXAMPLE, '-o', 'json']);
      const list = JSON.parse(json.stdout) as List;
      expect([json.code, list.apiVersion, list.kind]).toEqual([0, 'v1', 'List']);
      const ids = await cli([
        ...args,
        ...EXAMPLE,
        '-o',
        'jsonpath-as-json={.items[*].metadata.id}',
      ]);
      expect(list.items.map((item) => item.metadata.id)).toEqual(JSON.parse(ids.stdout));
      expect(list.items).toHaveLength(3);
    }
    const one = await cli(['get', 'vm', 'web-1', ...EXAMPLE, '-o', 'json']);
    expect(JSON.parse(one.stdout)).toMatchObject({ metadata: { id: 'web-1' } });
    expect(JSON.parse(one.stdout)).not.toHaveProperty('items');
  });

  it('takes several ids, as kubectl does: those found on stdout, each one not found on stderr, exit 1', async () => {
    const both = await cli(['get', 'vm', 'web-2', 'web-1', ...EXAMPLE, '-o', 'name', '-q']);
    expect([both.code, both.stdout]).toEqual([0, 'vms.example.org/web-1\nvms.example.org/web-2\n']);
    const json = await cli(['get', 'vm', 'web-1', 'db-1', ...EXAMPLE, '-o', 'json', '-q']);
    expect((JSON.parse(json.stdout) as { items: unknown[] }).items.length).toBe(2);
    const one = await cli(['get', 'vm', 'web-1', 'nope', ...EXAMPLE, '-o', 'name', '-q']);
    expect([one.code, one.stdout, one.stderr]).toEqual([
      1,
      'vms.example.org/web-1\n',
      'cosi: resource "nope" of type "vm" not found\n',
    ]);
    const watched = await cli(['get', 'vm', 'web-1', 'db-1', ...EXAMPLE, '-w']);
    expect([watched.code, watched.stderr]).toEqual([
      2,
      'cosi: get -w: one id, or a type, at a time\n',
    ]);
  });

  it("answers kubectl's get crd and get all with where cosi keeps those", async () => {
    const crd = await cli(['get', 'crd', '-f', 'fixtures/real-crds/cert-manager', '-q']);
    expect([crd.code, crd.stdout, crd.stderr]).toEqual([
      0,
      '',
      'No resources found: the CustomResourceDefinitions read define types, listed by cosi get rd\n',
    ]);
    const all = await cli(['get', 'all', ...EXAMPLE]);
    expect([all.code, all.stderr]).toEqual([
      2,
      'cosi: resource type "all" is not registered: `cosi apply` prints every type, `cosi get rd` lists them\n',
    ]);
  });

  it('a malformed --sort-by is a usage error before the run', async () => {
    const bad = await cli(['get', 'vm', ...EXAMPLE, '--sort-by', '{.spec[}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sort-by: bad JSONPath "{.spec[}"');
    expect(bad.stdout).toBe('');
  });

  it('a --sort-by path no resource has a value at is refused, as kubectl does', async () => {
    const misspelt = await cli(['get', 'vm', ...EXAMPLE, '--sort-by', '.spec.cpu']);
    expect(misspelt.stderr).toContain(
      '--sort-by: none of the 3 resources has a value at {.spec.cpu}',
    );
    expect(misspelt.stdout).toBe('');
    expect(misspelt.code).toBe(2);
    // A value in some resources is enough (the hosts have no labels, the VMs have).
    const some = await cli([
      'get',
      'vm,host',
      ...EXAMPLE,
      '--sort-by',
      '.metadata.labels.tier',
      '-o',
      'name',
    ]);
    expect(some.code).toBe(0);
    // The types in the order asked for, as kubectl prints them.
    expect(some.stdout.split('\n').filter(Boolean)).toEqual([
      'vms.example.org/db-1',
      'vms.example.org/web-1',
      'vms.example.org/web-2',
      'hosts.example.org/node-a',
      'hosts.example.org/node-b',
    ]);
    // One resource asked for by id is not sorted, so its path is not checked (kubectl's too).
    const one = await cli([
      'get',
      'vm',
      'db-1',
      ...EXAMPLE,
      '--sort-by',
      '.spec.cpu',
      '-o',
      'name',
    ]);
    expect(one).toMatchObject({ code: 0, stdout: 'vms.example.org/db-1\n' });
  });

  it('--no-headers drops the header line; --show-labels adds the labels', async () => {
    const plain = await cli(['get', 'vm', ...EXAMPLE, '--no-headers', '--show-labels']);
    const lines = plain.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.some((l) => l.includes('NAMESPACE'))).toBe(false);
    expect(lines[0]).toMatch(/^default\s+VM\s+db-1\s.*tier=data$/);
    const headed = await cli(['get', 'vm', ...EXAMPLE, '--show-labels']);
    expect(headed.stdout.split('\n')[0]).toMatch(/\sLABELS$/);
    const columns = await cli([
      'get',
      'vm',
      ...EXAMPLE,
      '--no-headers',
      '-o',
      'custom-columns=ID:.metadata.id',
    ]);
    expect(columns.stdout).toBe('db-1\nweb-1\nweb-2\n');
  });

  it("apply prints in get's formats and takes its table flags (review cli3 L8)", async () => {
    const both = async (flags: string[]): Promise<void> => {
      const got = await cli(['get', 'vm', ...EXAMPLE, ...flags]);
      const applied = await cli(['apply', '-t', 'vm', ...EXAMPLE, ...flags]);
      expect(applied).toEqual(got);
      expect(applied.code).toBe(0);
    };
    await both(['-o', 'jsonpath={.metadata.id}{"\\n"}']);
    await both(['-o', 'jsonpath-as-json={.spec.cpus}']);
    await both(['-o', 'custom-columns=ID:.metadata.id,CPUS:.spec.cpus', '--no-headers']);
    await both(['--sort-by', '.spec.cpus', '--show-labels']);
    expect((await cli(['apply', ...EXAMPLE, '-o', 'jsonpath={.metadata.id'])).code).toBe(2);
    expect((await cli(['apply', ...EXAMPLE, '--sort-by', '.spec['])).code).toBe(2);
  });

  it('an unknown -o format names the nearest, as an unknown flag does (review cli3 L4)', async () => {
    const near = async (args: string[]): Promise<string> => {
      const r = await cli(args);
      expect(r.code).toBe(2);
      return r.stderr;
    };
    expect(await near(['graph', ...EXAMPLE, '-o', 'dott'])).toBe(
      'cosi: -o: unknown format "dott" (did you mean "dot"?) (expected text, tree, dot, svg, mermaid, json)\n',
    );
    expect(await near(['get', 'vm', ...EXAMPLE, '-o', 'JSON'])).toContain(
      'unknown format "JSON" (did you mean "json"?)',
    );
    expect(await near(['get', 'vm', ...EXAMPLE, '-o', 'jsonpath'])).toContain(
      'unknown format "jsonpath" (did you mean "jsonpath=TEMPLATE"?)',
    );
    expect(await near(['check', ...EXAMPLE, '-o', 'junt'])).toContain('(did you mean "junit"?)');
    expect(await near(['apply', ...EXAMPLE, '-o', 'xml'])).toBe(
      'cosi: -o: unknown format "xml" (expected table, wide, yaml, json, name, jsonpath=TEMPLATE, jsonpath-as-json=TEMPLATE, custom-columns=NAME:PATH,...)\n',
    );
  });

  it('a misspelt long flag given with its value after = names the flag meant, as given alone', async () => {
    const refused = async (args: string[]): Promise<string> => {
      const r = await cli(args);
      expect(r.code).toBe(2);
      return r.stderr;
    };
    // kubectl's docs write --sort-by=.metadata.name: commander suggested only for --sortby alone.
    expect(await refused(['get', 'vm', ...EXAMPLE, '--sortby=.spec.cpus'])).toBe(
      "cosi: unknown option '--sortby=.spec.cpus'\n(Did you mean --sort-by?)\n",
    );
    expect(await refused(['get', 'vm', ...EXAMPLE, '--sortby', '.spec.cpus'])).toBe(
      "cosi: unknown option '--sortby'\n(Did you mean --sort-by?)\n",
    );
    expect(await refused(['check', '--expected=expected', 'fixtures/minimal'])).toBe(
      "cosi: unknown option '--expected=expected'\n(Did you mean --expect?)\n",
    );
    expect(await refused(['get', 'vm', ...EXAMPLE, '--zzzzzz=1'])).toBe(
      "cosi: unknown option '--zzzzzz=1'\n(cosi get --help lists its flags)\n",
    );
    // With no nearer flag, where the flags are, as kubectl's "See 'kubectl apply --help'"
    // (review firsthour 3): a first mistake said only "unknown option".
    expect(await refused(['apply', ...EXAMPLE, '--dry-run'])).toBe(
      "cosi: unknown option '--dry-run'\n(cosi apply --help lists its flags)\n",
    );
  });

  it('--no-headers over several types prints no blank line between them, as kubectl', async () => {
    // kubectl's get.go separates groups only when they have a header: `| while read` and
    // `wc -l` then see one row per resource (review cli3 M3).
    const both = await cli(['get', 'vm,host', ...EXAMPLE, '--no-headers']);
    expect(both.code).toBe(0);
    const lines = both.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines.every((l) => /^default\s+(VM|Host)\s/.test(l))).toBe(true);
    const headed = await cli(['get', 'vm,host', ...EXAMPLE]);
    expect(headed.stdout).toMatch(/\n\nNAMESPACE\s+TYPE\s+ID/);
  });

  it('-n reads one namespace; with none given, every namespace is read', async () => {
    const minimal = ['get', 'machine', '-f', 'fixtures/minimal', '-q', '-o', 'name'];
    expect((await cli([...minimal, '-n', 'staging'])).stdout).toBe('vms.example.org/db-1\n');
    expect((await cli([...minimal, '--namespace', 'default'])).stdout).toBe(
      'vms.example.org/web-1\n',
    );
    expect((await cli(minimal)).stdout).toBe('vms.example.org/web-1\nvms.example.org/db-1\n');
  });

  it('-A and --all-namespaces read every namespace, whatever -n says', async () => {
    const only = await cli(['get', 'vm', ...EXAMPLE, '-n', 'elsewhere', '-o', 'name']);
    expect(only.stdout).toBe('');
    for (const flag of ['-A', '--all-namespaces']) {
      const all = await cli(['get', 'vm', ...EXAMPLE, '-n', 'elsewhere', flag, '-o', 'name']);
      expect(all.stdout.split('\n').filter(Boolean)).toHaveLength(3);
    }
  });

  it('-o jsonpath-as-json prints the values as one JSON array', async () => {
    const each = await cli(['get', 'vm', ...EXAMPLE, '-o', 'jsonpath-as-json={.spec.cpus}']);
    expect(JSON.parse(each.stdout)).toEqual([6, 2, 2]);
    const items = await cli([
      'get',
      'vm',
      ...EXAMPLE,
      '-o',
      'jsonpath-as-json={.items[*].metadata.labels}',
    ]);
    expect(JSON.parse(items.stdout)).toEqual([{ tier: 'data' }, { tier: 'web' }, { tier: 'web' }]);
  });

  it("takes a short flag's value after =, as kubectl's docs write -o=jsonpath=...", async () => {
    const given = await cli([
      'get',
      'vm',
      '-f=fixtures/vm-network',
      '-q',
      '-n=default',
      '-l=tier=web',
      '-o=jsonpath={.metadata.id}',
    ]);
    expect(given).toMatchObject({ code: 0, stdout: 'web-1\nweb-2\n' });
    const elsewhere = await cli(['get', 'vm', ...EXAMPLE, '-n=elsewhere', '-o=name']);
    expect(elsewhere).toMatchObject({ code: 0, stdout: '' });
  });

  it("takes a short flag's value after = in a command that runs in a worker", async () => {
    const check = await runCosi(['check', '-f=fixtures/vm-network', '-o=github'], REPO);
    expect(check.stderr).toBe('');
    expect(check.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
    expect(check.code).toBe(0);
  });

  it('-o go-template is refused as out of scope, naming what to use instead', async () => {
    for (const output of [
      'go-template={{.spec.cpus}}',
      'go-template-file=t.tmpl',
      'template={{.x}}',
    ]) {
      const refused = await cli(['get', 'vm', ...EXAMPLE, '-o', output]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('Go templates are out of scope for cosi');
      expect(refused.stderr).toContain('-o jsonpath=TEMPLATE');
    }
  });
});

describe('github annotations', { timeout: 60_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-github-'));
    await mkdir(path.join(dir, '.git'));
    await mkdir(path.join(dir, 'project'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a config error has a line and a path relative to the workspace', async () => {
    await writeFile(
      path.join(dir, 'project/cosi.config.ts'),
      'export default {\n  controller: [],\n};\n',
    );
    await writeFile(path.join(dir, 'project/a.yaml'), 'metadata: { type: x, id: a }\n');
    const check = await cli(['check', 'project', '-o', 'github'], {
      cwd: dir,
      env: { GITHUB_WORKSPACE: dir },
    });
    expect(check.code).toBe(2);
    const annotations = check.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(/^::error file=project\/cosi\.config\.ts,line=2,col=3,/);
  });

  it("names each finding's place and code in its message, which is all the job log shows of it (review report3 3)", async () => {
    // GitHub makes 10 errors of a step annotations; argo-cd's 977 are read in the log, which
    // prints a command's message, not its file= and line= properties.
    const many = path.join(dir, 'many');
    await mkdir(many, { recursive: true });
    for (let i = 0; i < 12; i++) {
      await writeFile(
        path.join(many, `cm-${i}.yaml`),
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  size: ${i}\n`,
      );
    }
    const check = await cli(['check', 'many', '-o', 'github'], {
      cwd: dir,
      env: { GITHUB_WORKSPACE: dir },
    });
    expect(check.code).toBe(1);
    const errors = check.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(12);
    for (const e of errors) {
      const [, file, line, col, code, message] =
        /^::error file=([^,]+),line=(\d+),col=(\d+),title=manifests%3A ([\w-]+)::(.*)$/.exec(e) ??
        [];
      expect(message?.startsWith(`${file}:${line}:${col}: ${code}: `), e).toBe(true);
    }
    expect(errors[0]).toMatch(/::many\/cm-0\.yaml:6:9: schema-violation: /);
  });

  it('every kind of finding of a check is annotated with a line, in a file relative to the workspace', async () => {
    const project = path.join(dir, 'starter');
    await writeStarterProject(project);
    const config = path.join(project, 'cosi.config.ts');
    const check = async (...args: string[]): Promise<string[]> => {
      const run = await cli(['check', '-o', 'github', ...args], {
        cwd: project,
        env: { GITHUB_WORKSPACE: dir },
      });
      return run.stdout.split('\n').filter((l) => l.startsWith('::'));
    };
    const seen = new Map<string, string>();
    const collect = (annotations: string[]): void => {
      for (const a of annotations) seen.set(/title=[^%]*%3A ([\w-]+)/.exec(a)?.[1] ?? a, a);
    };
    // Invalid manifests: a schema violation and a YAML syntax error.
    const manifests = path.join(project, 'manifests');
    await writeFile(
      path.join(manifests, 'bad.yaml'),
      'metadata: { type: app, id: bad }\nspec: { image: 1 }\n',
    );
    await writeFile(path.join(manifests, 'broken.yaml'), 'metadata: { type: app, id: x\n');
    collect(await check());
    await unlink(path.join(manifests, 'bad.yaml'));
    await unlink(path.join(manifests, 'broken.yaml'));
    // A controller that throws on one App; goldens that miss one resource, list one more, and
    // hold no file at all for a type.
    const source = await readFile(config, 'utf8');
    await writeFile(
      config,
      source.replace(
        'config.spec.image = app.spec.image;',
        "if (app.metadata.id === 'web') throw new Error('no web');\n    $&",
      ),
    );
    await writeFile(
      path.join(manifests, 'more.yaml'),
      'metadata: { type: app, id: more }\nspec: { image: x/more }\n',
    );
    await unlink(path.join(project, 'expected/AppConfigs.example.org.yaml'));
    const apps = path.join(project, 'expected/Apps.example.org.yaml');
    await writeFile(
      apps,
      `${(await readFile(apps, 'utf8')).replace('image: nginx', 'image: nginx:2')}---\nmetadata: { namespace: default, type: Apps.example.org, id: ghost }\nspec: {}\n`,
    );
    collect(await check('--expect', 'expected'));
    // A run that does not converge within its bound, and so records no goldens.
    await writeFile(config, source);
    collect(await check('--max-writes', '1', '--expect', 'expected', '--update'));
    expect([...seen.keys()].sort()).toEqual([
      'controller-failed',
      'controller-recovered',
      'missing-resource',
      'not-converged',
      'not-recorded',
      'schema-violation',
      'unexpected-resource',
      'unexpected-state',
      'yaml-syntax',
    ]);
    for (const annotation of seen.values()) {
      expect(annotation).toMatch(
        /^::(error|warning) file=starter\/[^,]+\.(ya?ml|ts),line=[1-9]\d*,/,
      );
    }
    // The resource the goldens do not list is annotated in its type's golden file, which holds
    // it once recorded; a type with no golden file, at the file --update writes.
    const unexpected = await check('--expect', 'expected');
    expect(
      unexpected.some((a) =>
        a.startsWith('::error file=starter/expected/Apps.example.org.yaml,line=2,'),
      ),
    ).toBe(true);
    expect(
      unexpected.some((a) =>
        a.startsWith('::error file=starter/expected/AppConfigs.example.org.yaml,line=1,'),
      ),
    ).toBe(true);
  });

  it('a finding of no file is annotated on the first line of the config, else of the path given', async () => {
    await mkdir(path.join(dir, 'empty'), { recursive: true });
    await writeFile(path.join(dir, 'empty/cosi.config.ts'), 'export default {};\n');
    const empty = await cli(['check', 'empty', '-o', 'github'], {
      cwd: dir,
      env: { GITHUB_WORKSPACE: dir },
    });
    expect(empty.code).toBe(1);
    expect(empty.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      '::error file=empty/cosi.config.ts,line=1,title=manifests%3A empty-input::empty-input: no manifest files found',
    ]);

    await mkdir(path.join(dir, 'plain'), { recursive: true });
    await writeFile(path.join(dir, 'plain/a.yaml'), 'metadata: { type: x, id: a }\n');
    const usage = await cli(['check', 'plain', '--update', '-o', 'github'], {
      cwd: dir,
      env: { GITHUB_WORKSPACE: dir },
    });
    expect(usage.code).toBe(2);
    expect(usage.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      '::error file=plain,line=1,title=setup%3A usage-error::usage-error: --update needs --expect <dir>',
    ]);
  });

  it('a config that throws is annotated at the line that threw', async () => {
    await writeFile(
      path.join(dir, 'project/cosi.config.ts'),
      "const ok = 1;\nthrow new Error('boom');\nexport default { ok };\n",
    );
    const check = await cli(['check', 'project', '-o', 'github'], {
      cwd: path.join(dir, 'project'),
      env: { GITHUB_WORKSPACE: dir },
    });
    const annotations = check.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations[0]).toMatch(/^::error file=project\/cosi\.config\.ts,line=2,col=\d+,/);
  });
});
