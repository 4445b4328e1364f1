import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli, REPO } from './run-cli.js';

const WHY_NOT = 'fixtures/cli/why-not';

describe('cosi explain', () => {
  it('traces a NetworkConfig back to the VM manifest, with file:line:col', async () => {
    const { code, stdout } = await cli([
      'explain',
      'networkconfig',
      'web-1',
      '-f',
      'fixtures/vm-network',
      '--stable',
      '-q',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'NetworkConfigs.example.org(default/web-1)@1  <- vmnet.NetworkConfigController reconcile #',
    );
    expect(stdout).toContain(
      '└─ strong: VMs.example.org(default/web-1)@1  <- manifest fixtures/vm-network/vms.yaml:2:1',
    );
    expect(stdout).toMatch(/\/spec\/hostname {2}v1 vmnet\.NetworkConfigController reconcile #\d+/);
  });

  it('takes TYPE/ID, and shows what a resource feeds with --reverse', async () => {
    const { code, stdout } = await cli([
      'explain',
      'vm/web-1',
      '-f',
      'fixtures/vm-network',
      '--reverse',
      '--stable',
      '-q',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('feeds (what it is an input of)');
    expect(stdout).toMatch(/strong: NetworkConfigs\.example\.org\(default\/web-1\)@1/);
    expect(stdout).toMatch(/primary: Placements\.example\.org\(default\/web-1\)@1/);
    expect(stdout).toContain('/spec/cpus             manifest fixtures/vm-network/vms.yaml:8:9');
  });

  it("names a Kubernetes object's fields by its document's own paths, at each field's line", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-explain-'));
    try {
      await writeFile(
        path.join(dir, 'app.yaml'),
        [
          'apiVersion: apps/v1',
          'kind: Deployment',
          'metadata:',
          '  name: web',
          'spec:',
          '  replicas: 2',
          '  selector:',
          '    matchLabels: {app: web}',
          '  template:',
          '    metadata:',
          '      labels: {app: web}',
          '    spec:',
          '      containers:',
          '      - {name: web, image: nginx}',
          '---',
          'apiVersion: v1',
          'kind: ConfigMap',
          'metadata:',
          '  name: cfg',
          'data:',
          '  a: "1"',
          '',
        ].join('\n'),
      );
      // A cosi-shaped document of a CRD's type writes the object's fields under its spec.
      await writeFile(
        path.join(dir, 'cert.yaml'),
        'metadata: {type: cert, id: x}\nspec:\n  spec: {secretName: s, dnsNames: [a.example.org], issuerRef: {name: a}}\n',
      );
      const crds = path.join(REPO, 'fixtures/kubernetes/crds.yaml');
      const fields = async (resource: string) => {
        const { code, stdout } = await cli(
          ['explain', resource, '-f', 'app.yaml', '-f', 'cert.yaml', '-f', crds, '-q'],
          { cwd: dir },
        );
        expect(code).toBe(0);
        return stdout.split('\n').filter((l) => l.startsWith('  /'));
      };
      expect(await fields('deploy/web')).toEqual([
        '  /spec/replicas                      manifest app.yaml:6:13',
        '  /spec/selector/matchLabels/app      manifest app.yaml:8:24',
        '  /spec/template/metadata/labels/app  manifest app.yaml:11:21',
        '  /spec/template/spec/containers      manifest app.yaml:14:7',
      ]);
      expect(await fields('cm/cfg')).toEqual(['  /data/a  manifest app.yaml:21:6']);
      expect(await fields('cert/x')).toContain(
        '  /spec/spec/secretName      manifest cert.yaml:3:22',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops the tree at --depth', async () => {
    const { stdout } = await cli([
      'explain',
      'hoststatus',
      'node-a',
      '-f',
      'fixtures/vm-network',
      '--depth',
      '0',
      '--stable',
      '-q',
    ]);
    expect(stdout).toContain('(… --depth)');
  });

  it('cuts the lineage of a run that did not settle at the default depth, and bounds --depth', async () => {
    // ping-pong never converges: each version of ping leads to one of pong and back, thousands of
    // hops; walking them all overflowed the stack.
    const args = ['explain', 'echo', 'ping', '-f', 'fixtures/cli/ping-pong', '--stable', '-q'];
    const { code, stdout, stderr } = await cli(args);
    expect(stderr).not.toContain('internal error');
    expect(code).toBe(3);
    const hops = stdout.split('\n').filter((line) => / <- (Ping|Pong) reconcile #/.test(line));
    expect(hops).toHaveLength(33);
    expect(stdout).toContain('(… --depth)');
    const tooDeep = await cli([...args, '--depth', '1001']);
    expect(tooDeep.code).toBe(2);
    expect(tooDeep.stderr).toContain('--depth: at most 1000 hops, got 1001');
  }, 60_000);

  it('prints the explanation as JSON and as DOT', async () => {
    const args = ['explain', 'networkconfig', 'web-1', '-f', 'fixtures/vm-network', '--stable'];
    const json = await cli([...args, '-o', 'json', '-q']);
    const data = JSON.parse(json.stdout) as {
      resource: { metadata: { id: string } };
      lineage: { edges: { kind: string; node: { origin: { kind: string } } }[] };
    };
    expect(data.resource.metadata.id).toBe('web-1');
    expect(data.lineage.edges[0]).toMatchObject({
      kind: 'strong',
      node: { origin: { kind: 'manifest' } },
    });
    const dot = await cli([...args, '-o', 'dot', '-q']);
    expect(dot.stdout).toMatch(/^digraph explain \{/);
    expect(dot.stdout).toContain('[label="strong"]');
  });

  it('prints the explanation as YAML, the same data as JSON, as kubectl -o yaml', async () => {
    const args = ['explain', 'deployment/shop', '-f', 'fixtures/kro-webapp', '--stable', '-q'];
    const json = await cli([...args, '-o', 'json']);
    const yaml = await cli([...args, '-o', 'yaml']);
    expect(yaml.code).toBe(0);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    expect(yaml.stdout).toContain(
      '\nrenderedBy:\n  graph: webapp.kro.run\n  resource: deployment\n',
    );
  });

  it('prints a Kubernetes object in -o yaml and -o json as get -o yaml does, and a cluster-scoped owner without a namespace', async () => {
    const project = ['-f', 'fixtures/cluster-scoped-owners', '-n', 'team-a', '--stable', '-q'];
    const args = ['explain', 'configmap', 'tenant-acme', ...project];
    const yaml = await cli([...args, '-o', 'yaml']);
    expect(yaml.code).toBe(0);
    const json = await cli([...args, '-o', 'json']);
    const get = await cli(['get', 'configmap', 'tenant-acme', ...project, '-o', 'yaml']);
    expect(get.code).toBe(0);
    const printed = parse(get.stdout) as Record<string, unknown>;
    const explained = (parse(yaml.stdout) as { resource: Record<string, unknown> }).resource;
    // apiVersion, kind, metadata.uid, the owner reference as kubectl prints it: get's object.
    expect(explained).toEqual(printed);
    expect((JSON.parse(json.stdout) as { resource: unknown }).resource).toEqual(printed);
    expect(yaml.stdout).toContain('    creationTimestamp: "2025-01-01T00:00:00Z"\n');
    expect(yaml.stdout).toContain('      - apiVersion: example.org/v1\n        kind: Tenant\n');
    const tree = await cli(args);
    expect(tree.code).toBe(0);
    // The Tenant is cluster-scoped: in no namespace, not default/acme.
    expect(tree.stdout).toContain('triggered by Tenants.example.org(acme)@1');
    expect(tree.stdout).not.toContain('default/acme');
  });

  it("prints a sensitive type's resource without its spec in every format, as get -o does", async () => {
    const args = ['explain', 'Secrets.example.org/db-password', '-f', 'fixtures/cli/sensitive'];
    for (const format of ['tree', 'json', 'yaml', 'dot']) {
      const r = await cli([...args, '-o', format, '-q', '--stable']);
      expect(r.code, format).toBe(0);
      expect(r.stdout, format).toContain('db-password');
      expect(r.stdout, format).not.toContain('hunter2');
    }
    const json = await cli([...args, '-o', 'json', '-q', '--stable']);
    const data = JSON.parse(json.stdout) as { resource: Record<string, unknown> };
    expect(Object.keys(data.resource)).toEqual(['metadata']);
    // Which field the manifest set is still said: its path, not its value.
    expect(json.stdout).toContain('"field": "/spec/key"');
  });

  it('says a missing resource does not exist, and points at --why-not', async () => {
    const { code, stderr } = await cli([
      'explain',
      'networkconfig',
      'ghost',
      '-f',
      'fixtures/vm-network',
      '-q',
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain('does not exist: add --why-not');
  });

  it('finds a resource in the one namespace that has it when no -n is given, as get does', async () => {
    const { code, stdout } = await cli([
      'explain',
      'deployment/tenant001-deployment',
      '-f',
      'fixtures/kro-examples/saas-multi-tenant',
      '--stable',
      '-q',
    ]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(
      /^Deployments\.apps\(tenant001\/tenant001-deployment\)@1 {2}owner: ResourceGraph\(tenantapplication\.kro\.run\)/,
    );
  });

  it.each([
    [
      ['deployment/shop', '-n', 'prod'],
      'cosi: Deployments.apps(prod/shop) does not exist (there is one in namespace default: -n default): add --why-not',
    ],
    [
      ['deployment/shopp'],
      'cosi: Deployments.apps(default/shopp) does not exist (did you mean "shop"?): add --why-not',
    ],
  ])('says where a missing resource may be: %j', async (args, expected) => {
    const { code, stderr } = await cli(['explain', ...args, '-f', 'fixtures/kro-webapp', '-q']);
    expect(code).toBe(1);
    expect(stderr).toContain(expected);
  });

  describe('--why-not, one missing output per reason', () => {
    it.each([
      [
        'gadget',
        'ghost',
        'input-missing: its primary input Widgets.whynot.cosi.dev(default/ghost) does not exist',
      ],
      [
        'gadget',
        'broken',
        'given-up: its reconcile of Widgets.whynot.cosi.dev(default/broken) failed 10 times and was given up: the broken widget cannot be built  (fixtures/cli/why-not/manifests.yaml:16:1)',
      ],
      [
        'gadget',
        'bad',
        'error: its reconcile of Widgets.whynot.cosi.dev(default/bad) failed (terminal, not retried)',
      ],
      [
        'badge',
        'off',
        'filtered: its predicates or handlers queued nothing for Widgets.whynot.cosi.dev(default/off)  (fixtures/cli/why-not/manifests.yaml:10:1)',
      ],
      [
        'assembly',
        'spare',
        'mapped-to-nothing: its mapInput returned nothing for Parts.whynot.cosi.dev(default/spare)',
      ],
      [
        'stamp',
        'first',
        "refused: it tried to write Stamps.whynot.cosi.dev(default/first) 10 time(s) and was refused: controller \"StampController\" may not modify Stamps.whynot.cosi.dev(default/first): Stamps.whynot.cosi.dev is not one of its outputs (declare it among its outputs: { type: 'Stamps.whynot.cosi.dev', kind: 'exclusive' })",
      ],
      [
        'ticket',
        'temp',
        'torn-down: TicketController wrote Tickets.whynot.cosi.dev(default/temp) (reconcile #',
      ],
    ])('%s %s', async (type, id, expected) => {
      const { stdout } = await cli([
        'explain',
        type,
        id,
        '-f',
        WHY_NOT,
        '--why-not',
        '--stable',
        '-q',
      ]);
      expect(stdout).toContain('does not exist');
      expect(stdout).toContain(expected);
    });

    it('names the missing input in the namespace asked about, and says when the controller reads another only', async () => {
      const { stdout } = await cli([
        'explain',
        'badge',
        'ghost',
        '-n',
        'lab',
        '-f',
        WHY_NOT,
        '--why-not',
        '--stable',
        '-q',
      ]);
      // BadgeController, a builder controller, reads Widgets in every namespace.
      expect(stdout).toContain(
        'input-missing: its primary input Widgets.whynot.cosi.dev(lab/ghost) does not exist\n',
      );
      const gadget = await cli([
        'explain',
        'gadget',
        'ghost',
        '-n',
        'lab',
        '-f',
        WHY_NOT,
        '--why-not',
        '--stable',
        '-q',
      ]);
      // GadgetController declares its input in namespace default.
      expect(gadget.stdout).toContain(
        'input-missing: its primary input Widgets.whynot.cosi.dev(default/ghost) does not exist (it reads namespace default only)',
      );
    });
  });

  it('shows the cycle of writes of fighting controllers, and the report links to it', async () => {
    const { code, stdout } = await cli([
      'explain',
      'echo',
      'ping',
      '-f',
      'fixtures/cli/ping-pong',
      '--depth',
      '2',
      '--stable',
      '-q',
    ]);
    expect(code).toBe(3);
    expect(stdout).toContain('cycle of writes (it keeps changing)');
    expect(stdout).toMatch(
      /Pong \(reconcile #\d+\) wrote Echoes\.test\.cosi\.dev\(default\/pong\)@\d+ \(\/spec\/value\),\n {2}which triggered Ping \(reconcile #\d+\), which wrote Echoes\.test\.cosi\.dev\(default\/ping\)@\d+ \(\/spec\/value\),\n {2}which triggered Pong again: the cycle repeats/,
    );
    const apply = await cli(['apply', '-f', 'fixtures/cli/ping-pong', '--stable']);
    expect(apply.stderr).toContain(
      'why: cosi explain Echoes.test.cosi.dev/ping -n default -f fixtures/cli/ping-pong',
    );
  });
});
