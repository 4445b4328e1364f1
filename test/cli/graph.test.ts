import { spawnSync } from 'node:child_process';
import { appendFile, cp, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../support/temporary-directory.js';
import { cli } from './run-cli.js';

const DEMO = 'fixtures/graph-demo';
const VM_NETWORK = 'fixtures/vm-network';
const SNAPSHOTS = './__snapshots__/graph';

const HAS_DOT = spawnSync('dot', ['-V']).status === 0;

/** A quoted DOT id; the group is its text. */
const DOT_ID = String.raw`"((?:[^"\\]|\\.)*)"`;

/**
 * Checks DOT line by line against the statements cosi writes (every edge between declared
 * nodes, clusters closed), then, where Graphviz is installed, renders it with `dot -Tsvg`.
 */
function expectRenderableDot(source: string): void {
  const lines = source.trimEnd().split('\n');
  expect(lines[0]).toBe('digraph "cosi" {');
  expect(lines.at(-1)).toBe('}');
  const declared = new Set<string>();
  const ends: string[] = [];
  let open = 0;
  for (const raw of lines.slice(1, -1)) {
    const line = raw.trim();
    const edge = new RegExp(`^${DOT_ID} -> ${DOT_ID} \\[[^\\]]*\\];$`).exec(line);
    const node = new RegExp(`^${DOT_ID} \\[[^\\]]*\\];$`).exec(line);
    if (edge) ends.push(edge[1]!, edge[2]!);
    else if (node) declared.add(node[1]!);
    else if (/^subgraph "cluster_[^"]+" \{$/.test(line)) open++;
    else if (line === '}') open--;
    else if (!/^$|^\/\/ |^(graph|node|edge) \[.*\];$|^(label|style|fillcolor)=.+;$/.test(line)) {
      expect.fail(`not a DOT statement cosi writes: ${line}`);
    }
  }
  expect(open).toBe(0);
  expect(ends.filter((e) => !declared.has(e))).toEqual([]);
  if (HAS_DOT) {
    const rendered = spawnSync('dot', ['-Tsvg'], { input: source, encoding: 'utf8' });
    expect(rendered.stderr).toBe('');
    expect(rendered.status).toBe(0);
    expect(rendered.stdout).toContain('<svg');
  }
}

/** Checks a Mermaid flowchart: safe ids, every edge between declared nodes or subgraphs. */
function expectWellFormedMermaid(source: string): void {
  const lines = source.trimEnd().split('\n');
  expect(lines[0]).toBe('flowchart LR');
  const declared = new Set<string>();
  const ends: string[] = [];
  let edges = 0;
  let open = 0;
  for (const raw of lines.slice(1)) {
    const line = raw.trim();
    const edge = /^(\w+) (==>|-->|-\.->)(\|"[^"]*"\|)? (\w+)$/.exec(line);
    const node = /^(\w+)(\["[^"]*"\]|\("[^"]*"\)|\[\("[^"]*"\)\])$/.exec(line);
    const subgraph = /^subgraph (\w+)\["[^"]*"\]$/.exec(line);
    const linkStyle = /^linkStyle ([\d,]+) /.exec(line);
    const classes = /^class ([\w,]+) \w+$/.exec(line);
    if (edge) {
      ends.push(edge[1]!, edge[4]!);
      edges++;
    } else if (node) declared.add(node[1]!);
    else if (subgraph) {
      declared.add(subgraph[1]!);
      open++;
    } else if (line === 'end') open--;
    else if (linkStyle) {
      for (const i of linkStyle[1]!.split(',')) expect(Number(i)).toBeLessThan(edges);
    } else if (classes) ends.push(...classes[1]!.split(','));
    else if (!/^%% |^classDef \w+ |^style \w+ /.test(line)) {
      expect.fail(`not a Mermaid statement cosi writes: ${line}`);
    }
  }
  expect(open).toBe(0);
  expect(ends.filter((e) => !declared.has(e))).toEqual([]);
}

interface JsonView {
  controllers: { name: string; kind: string }[];
  types: string[];
  edges: { controller: string; type: string; kind: string; namespace?: string; id?: string }[];
  resources?: {
    type: string;
    resources: {
      namespace: string;
      type: string;
      id: string;
      owner: string;
      derivedFrom: { namespace: string; type: string; id: string; via: string }[];
    }[];
  }[];
}

async function graphJson(args: string[]): Promise<JsonView> {
  const r = await cli(['graph', ...args, '-o', 'json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as JsonView;
}

/** Manifests that define `type` and make one of it: a project needs at least one resource. */
const oneOf = (type: string): string =>
  `metadata: { type: ResourceDefinitions.meta.cosi.dev, id: ${type.toLowerCase()} }\n` +
  `spec: { type: ${type} }\n---\nmetadata: { type: ${type}, id: one }\nspec: {}\n`;

/** A project in a temporary directory: file name -> contents. */
async function project(files: Record<string, string>): Promise<string> {
  const dir = await temporaryDirectory('cosi-graph-');
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

/** Two controllers that write each other's input: X -> a -> Y -> b -> X, no type to start from. */
const LOOP_CONFIG = `
import { defineConfig, type Controller } from 'cosi';
const idle = (name: string, from: string, to: string): Controller => ({
  name,
  inputs: [{ namespace: 'default', type: from, kind: 'weak' }],
  outputs: [{ type: to, kind: 'exclusive' }],
  async run(rt) {
    for await (const _ of rt.events()) rt.resetRestartBackoff();
  },
});
export default defineConfig({
  controllers: [idle('a', 'Xs.loop.dev', 'Ys.loop.dev'), idle('b', 'Ys.loop.dev', 'Xs.loop.dev')],
});
`;

/** One controller that rewrites its own output on every wakeup: it never settles. */
const RESTLESS_CONFIG = `
import { defineConfig, newResource, type Controller } from 'cosi';
const restless: Controller = {
  name: 'restless',
  inputs: [{ namespace: 'default', type: 'Counters.loop.dev', kind: 'weak' }],
  outputs: [{ type: 'Counters.loop.dev', kind: 'exclusive' }],
  async run(rt) {
    for await (const _ of rt.events()) {
      await rt.modify(newResource({ namespace: 'default', type: 'Counters.loop.dev', id: 'n' }, { n: 0 }), (c) => {
        c.spec.n += 1;
      });
    }
  },
};
export default defineConfig({ controllers: [restless] });
`;

describe('cosi graph on the demo project', () => {
  it('lists per controller what it reads and writes, then the sources and cycles, by default', async () => {
    const r = await cli(['graph', '-f', DEMO]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/graph-demo.txt`);
  });

  it('prints a tree in the direction data flows, marking a cycle instead of following it', async () => {
    const r = await cli(['graph', '-f', DEMO, '-o', 'tree']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatchInlineSnapshot(`
      "Configs.demo.example.org
      └─ demo.NetworkController  [strong, config/global]
         └─ NetworkConfigs.demo.example.org  [exclusive]
            └─ demo.AddressController  [primary, default]
               └─ Addresses.demo.example.org  [exclusive]
                  └─ demo.LeaseController  [weak, default]
                     └─ Leases.demo.example.org  [exclusive]
                        ├─ demo.AddressController  [mapped, default]  (cycle)
                        └─ demo.StatusController  [weak, default]
                           └─ VMStatuses.demo.example.org  [shared]
      VMs.demo.example.org
      ├─ demo.NetworkController  [weak, default]  (see above)
      └─ demo.StatusController  [destroyReady, default]  (see above)
      "
    `);
  });

  it('prints DOT in the talosctl vocabulary that dot renders', async () => {
    const r = await cli(['graph', '-f', DEMO, '-o', 'dot']);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/graph-demo.dot`);
    expectRenderableDot(r.stdout);
  });

  it('draws exclusive outputs bold, weak inputs dotted, destroyReady dashed and pinned ids as labels', async () => {
    const { stdout } = await cli(['graph', '-f', DEMO, '-o', 'dot']);
    const edge = (from: string, to: string): string | undefined =>
      stdout.split('\n').find((l) => l.includes(`"${from}" -> "${to}"`));
    expect(edge('controller:demo.LeaseController', 'type:Leases.demo.example.org')).toContain(
      'style=bold',
    );
    expect(edge('controller:demo.StatusController', 'type:VMStatuses.demo.example.org')).toContain(
      'style=solid',
    );
    expect(edge('type:VMs.demo.example.org', 'controller:demo.NetworkController')).toContain(
      'style=dotted',
    );
    expect(edge('type:VMs.demo.example.org', 'controller:demo.StatusController')).toContain(
      'style=dashed',
    );
    expect(edge('type:Configs.demo.example.org', 'controller:demo.NetworkController')).toContain(
      'style=solid, label="global"',
    );
    expect(stdout).toContain(
      '"type:VMs.demo.example.org" [label="VMs.demo.example.org", shape=note, fillcolor=azure2, style=filled];',
    );
  });

  it('prints a Mermaid flowchart with safe node ids', async () => {
    const r = await cli(['graph', '-f', DEMO, '-o', 'mermaid']);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/graph-demo.mmd`);
    expectWellFormedMermaid(r.stdout);
    expect(r.stdout).toContain('c_demo_LeaseController ==> t_Leases_demo_example_org');
    expect(r.stdout).toContain('t_Configs_demo_example_org -->|"global"| c_demo_NetworkController');
  });

  it('warns, exit 0, when a Mermaid flowchart has more edges or text than Mermaid and GitHub draw by default', async () => {
    const dir = await temporaryDirectory('cosi-graph-mermaid-');
    await cp(VM_NETWORK, dir, { recursive: true });
    const vms = Array.from(
      { length: 120 },
      (_, i) =>
        `---\nmetadata:\n  type: vm\n  id: gen-${i}\nspec:\n  cpus: 1\n  image: debian\n  host: node-${i % 2 === 0 ? 'a' : 'b'}\n`,
    );
    await appendFile(path.join(dir, 'vms.yaml'), vms.join(''));
    const r = await cli(['graph', '-f', dir, '--resources', '-o', 'mermaid', '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^flowchart LR\n/);
    expect(r.stderr).toMatch(
      /^cosi: warning: -o mermaid: [\d,]+ edges \(limit 500\), [\d,]+ characters \(limit 50,000\): more than Mermaid \(and GitHub\) draws by default; draw part of it with --focus TYPE\/ID/m,
    );
    // A flowchart that fits is written without a word.
    const small = await cli(['graph', '-f', dir, '-o', 'mermaid', '-q']);
    expect(small.code).toBe(0);
    expect(small.stderr).toBe('');
  });

  it('prints the dependency graph data as JSON', async () => {
    const r = await cli(['graph', '-f', DEMO, '-o', 'json']);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/graph-demo.json`);
    const view = JSON.parse(r.stdout) as JsonView;
    expect(Object.keys(view)).toEqual(['controllers', 'types', 'edges']);
    expect(view.controllers).toContainEqual({
      name: 'demo.AddressController',
      kind: 'qcontroller',
    });
    expect(view.edges).toContainEqual({
      controller: 'demo.NetworkController',
      namespace: 'config',
      type: 'Configs.demo.example.org',
      id: 'global',
      kind: 'strong',
    });
  });

  it('does not run the controllers for the plain graph', async () => {
    const dir = await project({
      'cosi.config.ts': RESTLESS_CONFIG,
      'seeds.yaml': oneOf('Seeds.loop.dev'),
    });
    const r = await cli(['graph', '-f', dir, '--max-writes', '10']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('restless\n  reads   weak       default/Counters.loop.dev');
  });
});

describe('cosi graph --resources', () => {
  it('lists each instance under its type with its writer and where it came from', async () => {
    const r = await cli(['graph', '-f', DEMO, '--resources', '--stable']);
    expect(r.code).toBe(0);
    // The demo leaves VMStatuses undefined on purpose: the run says so, then gives its verdict.
    expect(r.stderr).toContain('warning[undefined-type]: VMStatuses.demo.example.org');
    expect(r.stderr).toMatch(/\nconverged, 12 resources, 4 controllers/);
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/graph-demo.resources.txt`);
  });

  it('follows one VM in the tree to everything derived from it', async () => {
    const r = await cli(['graph', '-f', DEMO, '--resources', '-o', 'tree', '-q']);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/graph-demo.resources.tree.txt`);
    const lines = r.stdout.split('\n');
    const start = lines.indexOf('VMs.demo.example.org(default/web-1)  manifest');
    const subtree = lines.slice(start + 1, start + 5).map((l) => /[A-Za-z].*?\)/.exec(l)?.[0]);
    expect(subtree).toEqual([
      'NetworkConfigs.demo.example.org(default/web-1)',
      'Addresses.demo.example.org(default/web-1)',
      'Leases.demo.example.org(default/web-1)',
      'VMStatuses.demo.example.org(default/web-1)',
    ]);
    expect(lines[start + 5]).toBe('VMs.demo.example.org(staging/batch-1)  manifest');
  });

  it('traces exact lineage: owner references, and what the writer really read, by input kind', async () => {
    const view = await graphJson(['-f', DEMO, '--resources', '-q']);
    const find = (type: string, id: string) =>
      view.resources
        ?.find((g) => g.type === type)
        ?.resources.find((r) => r.id === id && r.namespace === 'default');
    // The address controller also read the lease (its mapped input) when it wrote the address.
    expect(find('Addresses.demo.example.org', 'web-1')?.derivedFrom).toEqual([
      {
        namespace: 'default',
        type: 'NetworkConfigs.demo.example.org',
        id: 'web-1',
        via: 'ownerReference',
      },
      { namespace: 'default', type: 'Leases.demo.example.org', id: 'web-1', via: 'mapped' },
    ]);
    expect(find('NetworkConfigs.demo.example.org', 'web-1')).toMatchObject({
      owner: 'demo.NetworkController',
      derivedFrom: [
        { namespace: 'default', type: 'VMs.demo.example.org', id: 'web-1', via: 'weak' },
        { namespace: 'config', type: 'Configs.demo.example.org', id: 'global', via: 'strong' },
      ],
    });
    // VMs are only a destroyReady input of the status controller: no data, no lineage.
    expect(find('VMStatuses.demo.example.org', 'web-1')?.derivedFrom).toEqual([
      { namespace: 'default', type: 'Leases.demo.example.org', id: 'web-1', via: 'weak' },
    ]);
    expect(find('VMs.demo.example.org', 'web-1')).toMatchObject({ owner: '', derivedFrom: [] });
  });

  it('draws each type as a cluster of its instances in DOT, outputs to the resources owned', async () => {
    const r = await cli(['graph', '-f', DEMO, '--resources', '-o', 'dot', '-q']);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/graph-demo.resources.dot`);
    expectRenderableDot(r.stdout);
    expect(r.stdout).toContain('subgraph "cluster_VMs.demo.example.org" {');
    expect(r.stdout).toContain(
      '"controller:demo.LeaseController" -> "resource:default/Leases.demo.example.org/web-1" [style=bold];',
    );
    expect(r.stdout).toContain(
      '"resource:config/Configs.demo.example.org/global" -> "controller:demo.NetworkController" [style=solid, label="global"];',
    );
  });

  it('draws each type as a subgraph of its instances in Mermaid', async () => {
    const r = await cli(['graph', '-f', DEMO, '--resources', '-o', 'mermaid', '-q']);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/graph-demo.resources.mmd`);
    expectWellFormedMermaid(r.stdout);
    expect(r.stdout).toContain('  subgraph t_VMs_demo_example_org["VMs.demo.example.org"]');
  });

  it('writes every label of the Mermaid source as an entity where Mermaid would read markup, ', async () => {
    const thing = (id: string): string =>
      `---\nmetadata: { type: Things.example.org, id: ${JSON.stringify(id)} }\nspec: {}\n`;
    const dir = await project({
      'cosi.config.ts': `import { defineConfig, defineResource } from 'cosi';
export default defineConfig({ definitions: [defineResource({ type: 'Things.example.org' })] });
`,
      'things.yaml': ['<script>x</script>', '%%{init}%%', 'a&amp;b', 'hash#1'].map(thing).join(''),
    });
    const r = await cli(['graph', '-f', dir, '--resources', '-o', 'mermaid']);
    expect(r.code).toBe(0);
    expectWellFormedMermaid(r.stdout);
    expect(r.stdout).not.toMatch(/<script>|%%\{|&amp;/);
    expect(r.stdout).toContain('"default/#60;script#62;x#60;/script#62;"');
    expect(r.stdout).toContain('"default/#37;#37;{init}#37;#37;"');
    expect(r.stdout).toContain('"default/a#38;amp;b"');
    expect(r.stdout).toContain('"default/hash#35;1"');
  });

  it('writes a backslash of a name as an entity in Mermaid, which reads \\n as a line break', async () => {
    const dir = await project({
      'cosi.config.ts': `import { defineConfig, defineResource } from 'cosi';
export default defineConfig({ definitions: [defineResource({ type: 'Things.example.org' })] });
`,
      // A valid id (no whitespace, no control character), drawn by Mermaid 11 as "a" above "b".
      'things.yaml': `metadata: { type: Things.example.org, id: 'a\\nb\\' }\nspec: {}\n`,
    });
    const r = await cli(['graph', '-f', dir, '--resources', '-o', 'mermaid']);
    expect(r.code).toBe(0);
    expectWellFormedMermaid(r.stdout);
    expect(r.stdout).not.toContain('\\');
    expect(r.stdout).toContain('"default/a#92;nb#92;"');
  });

  it('writes control characters of a name out in DOT and Mermaid, which go to a terminal too', async () => {
    const dir = await project({
      'cosi.config.ts': `import { defineConfig, defineResource, type QController } from 'cosi';
const Thing = defineResource({ type: 'Things.example.org' });
const ctl: QController = {
  name: 'Ctl\\u001b]0;title\\u0007',
  settings: { inputs: [{ namespace: 'default', type: Thing.type, kind: 'primary' }], outputs: [] },
  reconcile: async () => undefined,
  mapInput: async () => [],
};
export default defineConfig({ definitions: [Thing], controllers: [ctl] });
`,
      'things.yaml': 'metadata: { type: Things.example.org, id: a }\nspec: {}\n',
    });
    for (const format of ['dot', 'mermaid']) {
      const r = await cli(['graph', '-f', dir, '-o', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.includes('\u001b') || r.stdout.includes('\u0007')).toBe(false);
      expect(r.stdout).toContain(
        format === 'dot' ? 'Ctl\\\\x1b]0;title\\\\x07' : 'Ctl\\x1b]0;title\\x07',
      );
    }
  });

  it('exits 3 and still prints the graph when the project does not converge', async () => {
    const dir = await project({
      'cosi.config.ts': RESTLESS_CONFIG,
      'seeds.yaml': oneOf('Seeds.loop.dev'),
    });
    const r = await cli(['graph', '-f', dir, '--resources', '--max-writes', '20', '-o', 'tree']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/did not converge/i);
    expect(r.stdout).toContain('Counters.loop.dev(default/n)  by restless');
  });
});

describe('cosi graph filters', () => {
  it('keeps one hop around a controller by default', async () => {
    const r = await cli(['graph', '-f', DEMO, '--controller', 'demo.LeaseController']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatchInlineSnapshot(`
      "demo.LeaseController
        reads   weak       default/Addresses.demo.example.org
        writes  exclusive  Leases.demo.example.org

      1 controller, 2 types, 2 edges
      "
    `);
  });

  it('resolves --type from any alias and keeps the controllers that touch it', async () => {
    const view = await graphJson(['-f', DEMO, '-t', 'vm']);
    expect(view.types).toEqual(['VMs.demo.example.org']);
    expect(view.controllers.map((c) => c.name)).toEqual([
      'demo.NetworkController',
      'demo.StatusController',
    ]);
    expect(view.edges.map((e) => `${e.controller} ${e.kind}`)).toEqual([
      'demo.NetworkController weak',
      'demo.StatusController destroyReady',
    ]);
  });

  it('finds a type that has no definition by its exact name, in any case', async () => {
    const view = await graphJson(['-f', DEMO, '-t', 'vmstatuses.demo.example.org']);
    expect(view.types).toEqual(['VMStatuses.demo.example.org']);
    expect(view.controllers.map((c) => c.name)).toEqual(['demo.StatusController']);
  });

  it('widens the view hop by hop with --depth', async () => {
    const two = await graphJson(['-f', DEMO, '-t', 'lease', '--depth', '2']);
    expect(two.controllers.map((c) => c.name)).toEqual([
      'demo.AddressController',
      'demo.LeaseController',
      'demo.StatusController',
    ]);
    expect(two.types).toEqual([
      'Addresses.demo.example.org',
      'Leases.demo.example.org',
      'NetworkConfigs.demo.example.org',
      'VMStatuses.demo.example.org',
      'VMs.demo.example.org',
    ]);
    const zero = await graphJson(['-f', DEMO, '-t', 'lease', '--depth', '0']);
    expect(zero).toEqual({ controllers: [], types: ['Leases.demo.example.org'], edges: [] });
    const all = await graphJson(['-f', DEMO, '-t', 'lease', '--depth', 'all']);
    const whole = await graphJson(['-f', DEMO]);
    expect(all).toEqual(whole);
  });

  it('shows only the filtered types with --resources', async () => {
    const view = await graphJson(['-f', DEMO, '-c', 'demo.AddressController', '--resources', '-q']);
    expect(view.resources?.map((g) => g.type)).toEqual([
      'Addresses.demo.example.org',
      'Leases.demo.example.org',
      'NetworkConfigs.demo.example.org',
    ]);
  });
});

/** The kro webapp RGD with instances in two namespaces (`a` and `b`). */
async function webappsInTwoNamespaces(): Promise<string> {
  const rgd = await readFile('fixtures/kro-webapp/rgd.yaml', 'utf8');
  const instance = (ns: string): string =>
    `apiVersion: kro.run/v1alpha1\nkind: WebApp\nmetadata: { name: shop, namespace: ${ns} }\nspec: { name: shop }\n`;
  return project({ 'rgd.yaml': rgd, 'instances.yaml': `${instance('a')}---\n${instance('b')}` });
}

describe("cosi graph of an RGD's instances in several namespaces", () => {
  it('draws the instance read and status write once, not once per namespace', async () => {
    const dir = await webappsInTwoNamespaces();
    const dot = await cli(['graph', '-f', dir, '-o', 'dot']);
    expect(dot.code).toBe(0);
    expect(dot.stdout.split('\n').filter((l) => l.includes('label="status"'))).toHaveLength(1);
    const mermaid = await cli(['graph', '-f', dir, '-o', 'mermaid']);
    expect(mermaid.stdout.split('\n').filter((l) => l.includes('|"status"|'))).toHaveLength(1);
    const resources = await cli(['graph', '-f', dir, '--resources', '-o', 'dot', '-q']);
    expect(resources.code).toBe(0);
    const status = resources.stdout.split('\n').filter((l) => l.includes('label="status"'));
    expect(status).toHaveLength(1);
    const tree = await cli(['graph', '-f', dir, '-o', 'tree']);
    expect(tree.stdout).toMatchInlineSnapshot(`
      "WebApps.kro.run
      └─ ResourceGraph(webapp.kro.run)  [primary, a, b, default]
         ├─ Deployments.apps  [shared]
         ├─ Ingresses.networking.k8s.io  [shared]
         └─ Services.core  [shared]

      ResourceGraph(webapp.kro.run): resources in render order
      └─ deployment  Deployments.apps
         └─ service  Services.core
            └─ ingress  Ingresses.networking.k8s.io  (includeWhen)
      "
    `);
  });
});

describe('cosi graph cycles', () => {
  it("names no cycle for a controller that reads what it writes (a builder's owns, nested RGDs)", async () => {
    // WebAppController: for(WebApp).owns(Deployment); HostStatusController the same pattern.
    for (const fixture of ['fixtures/kubernetes', 'fixtures/vm-network']) {
      const r = await cli(['graph', '-f', fixture]);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('cycle:');
    }
  });

  it('marks in the tree a controller met again from a type it writes as reading it, not a cycle', async () => {
    const r = await cli(['graph', '-f', 'fixtures/kro-examples/saas-multi-tenant', '-o', 'tree']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('(cycle)');
    expect(r.stdout).toContain(
      '│  ├─ ResourceGraph(tenant.kro.run)  [mapped, default]  (reads what it writes)\n',
    );
    const owns = await cli(['graph', '-f', 'fixtures/kubernetes', '-o', 'tree']);
    expect(owns.stdout).toContain('└─ WebAppController  [mapped, *]  (reads what it writes)');
  });

  it("names the loop of two controllers that share an output type and read each other's items (ping-pong)", async () => {
    const text = await cli(['graph', '-f', 'fixtures/cli/ping-pong']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'cycle: Echoes.test.cosi.dev -> Ping -> Echoes.test.cosi.dev -> Pong -> Echoes.test.cosi.dev\n',
    );
    const tree = await cli(['graph', '-f', 'fixtures/cli/ping-pong', '-o', 'tree']);
    expect(tree.stdout).toContain('(cycle)');
  });

  it('names a cycle in the text format and marks it in the tree, even with no type to start from', async () => {
    const dir = await project({
      'cosi.config.ts': LOOP_CONFIG,
      'xs.yaml': oneOf('Xs.loop.dev'),
    });
    const text = await cli(['graph', '-f', dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('cycle: Xs.loop.dev -> a -> Ys.loop.dev -> b -> Xs.loop.dev\n');
    const tree = await cli(['graph', '-f', dir, '-o', 'tree']);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toMatchInlineSnapshot(`
      "Xs.loop.dev
      └─ a  [weak, default]
         └─ Ys.loop.dev  [exclusive]
            └─ b  [weak, default]
               └─ Xs.loop.dev  [exclusive]  (cycle)
      "
    `);
    expectRenderableDot((await cli(['graph', '-f', dir, '-o', 'dot'])).stdout);
  });
});

describe('cosi graph --resources of a failing run', () => {
  const FAILING = 'fixtures/cli/failing-controller';

  it('marks the controller that kept failing and the resource it gave up on, in text and tree', async () => {
    const text = await cli(['graph', '-f', FAILING, '--resources', '-q']);
    expect(text.stdout).toContain('EchoController  (queue controller)  (failed)\n');
    expect(text.stdout).toMatch(/^ {2}default\/start {2}manifest {2}\(failed\)$/m);
    const tree = await cli(['graph', '-f', FAILING, '--resources', '-o', 'tree', '-q']);
    expect(tree.stdout).toContain('EchoController  [primary, default]  (failed)');
    expect(tree.stdout).toMatch(
      /Counters\.test\.cosi\.dev\(default\/start\) {2}manifest {2}\(failed\)$/m,
    );
  });

  it('draws them red in dot and mermaid, and names them in json', async () => {
    const dot = await cli(['graph', '-f', FAILING, '--resources', '-o', 'dot', '-q']);
    const red = dot.stdout.split('\n').filter((l) => l.includes('#b3171f'));
    expect(red.map((l) => /"([^"]+)"/.exec(l)?.[1])).toEqual([
      'controller:EchoController',
      'resource:default/Counters.test.cosi.dev/start',
    ]);
    const mermaid = await cli(['graph', '-f', FAILING, '--resources', '-o', 'mermaid', '-q']);
    expect(mermaid.stdout).toMatch(/^ {2}class \S+,\S+ failed$/m);
    const json = JSON.parse(
      (await cli(['graph', '-f', FAILING, '--resources', '-o', 'json', '-q'])).stdout,
    ) as {
      failedControllers?: string[];
      resources: { resources: { id: string; failed?: true }[] }[];
    };
    expect(json.failedControllers).toEqual(['EchoController']);
    const failed = json.resources.flatMap((g) => g.resources).filter((r) => r.failed === true);
    expect(failed.map((r) => r.id)).toEqual(['start']);
  });

  it('marks nothing in a run that passed', async () => {
    const text = await cli(['graph', '-f', 'fixtures/vm-network', '--resources', '-q']);
    expect(text.stdout).not.toContain('(failed)');
  });
});

describe('cosi graph exit codes and help', () => {
  it('exits 1 with the findings on stderr and the graph of what loaded on stdout', async () => {
    const dir = await temporaryDirectory('cosi-graph-invalid-');
    await cp(DEMO, dir, { recursive: true });
    const clean = await cli(['graph', '-f', dir]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('demo.NetworkController');
    // A file that does not parse, and a document with a duplicate key.
    await writeFile(path.join(dir, 'broken.yaml'), 'foo: [\n');
    await appendFile(path.join(dir, 'vms.yaml'), '---\nmetadata: {}\nmetadata: {}\n');
    for (const format of ['text', 'json']) {
      const r = await cli(['graph', '-f', dir, '-o', format]);
      expect(r.code, format).toBe(1);
      expect(r.stderr).toMatch(/^.*broken\.yaml:1:\d+: error\[yaml-syntax\]/m);
      expect(r.stderr).toMatch(/^.*vms\.yaml:\d+:1: error\[duplicate-key\]/m);
      const whole = await cli(['graph', '-f', DEMO, '-o', format]);
      // The controllers' graph does not depend on the manifests: the same as without the errors.
      expect(r.stdout, format).toBe(whole.stdout);
    }
  });

  it('--resources on invalid manifests: exit 1, the findings, and the resources that loaded', async () => {
    const dir = 'fixtures/cli/partly-invalid';
    const r = await cli(['graph', '-f', dir, '--resources']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${dir}/broken.yaml:2:11: error[yaml-syntax]`);
    expect(r.stderr).toContain(`${dir}/vms.yaml:14:9: error[schema-violation]`);
    expect(r.stderr).toContain(
      'cosi: the manifests have errors, so the controllers were not run: the graph shows the 3 resources that loaded, and nothing derived from them',
    );
    // The controllers, then the three resources that loaded, as manifests; nothing derived.
    expect(r.stdout).toContain('vmnet.NetworkConfigController');
    const resources = r.stdout.slice(r.stdout.indexOf('\nResources\n'));
    expect(resources.split('\n').filter((l) => l.endsWith('  manifest'))).toEqual([
      '  default/node-a  manifest',
      '  default/node-b  manifest',
      '  default/web-1  manifest',
    ]);
    expect(r.stdout).not.toContain('NetworkConfigs.example.org\n  default/');
    // Said even with --quiet: it says what the picture leaves out.
    const json = await cli(['graph', '-f', dir, '--resources', '-o', 'json', '-q']);
    expect(json.code).toBe(1);
    expect(json.stderr).toContain('the controllers were not run');
    const parsed = JSON.parse(json.stdout) as { resources: { resources: { id: string }[] }[] };
    expect(parsed.resources.flatMap((g) => g.resources.map((x) => x.id)).sort()).toEqual([
      'node-a',
      'node-b',
      'web-1',
    ]);
    // --focus on a resource that did not load: the usage error after the findings.
    const focus = await cli(['graph', '-f', dir, '--focus', 'vm/web-2']);
    expect(focus.code).toBe(2);
    expect(focus.stderr).toContain('error[schema-violation]');
    expect(focus.stderr).toContain('cosi: --focus: no resource "vm/web-2"');
    expect(focus.stdout).toBe('');
    const web = await cli(['graph', '-f', dir, '--focus', 'vm/web-1', '-o', 'dot']);
    expect(web.code).toBe(1);
    expect(web.stdout).toContain('"resource:default/VMs.example.org/web-1"');
  });

  it('exits 1 with the findings, and no graph when no controller is registered', async () => {
    const r = await cli(['graph', '-f', 'fixtures/invalid/several-problems']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^fixtures\/invalid\/several-problems\/.+:\d+:\d+: error\[/m);
  });

  it('exits 2 for an unknown format, controller, type or depth', async () => {
    const cases: [string[], string][] = [
      [['-o', 'png'], 'unknown format "png"'],
      [['--controller', 'nope'], 'no controller named "nope"'],
      [['--type', 'nope'], '--type: resource type "nope" is not registered'],
      [['--depth', '2'], '--depth: give --controller or --type'],
      [['-t', 'vm', '--depth', 'two'], '--depth: expected a whole number'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['graph', '-f', DEMO, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
    }
  });

  it('prints help with the edge styles, examples and exit codes', async () => {
    const r = await cli(['graph', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /-o, --output <format> +output format: text, tree, dot, svg, mermaid,\s+json/,
    );
    // Commander wraps the description to the width of the terminal: compare it unwrapped.
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'destroyReady and mappedDestroyReady inputs dashed (talosctl omits them)',
    );
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('Exit codes:');
  });
});

describe('cosi graph on the vm-network example', () => {
  it.each([
    ['text', 'txt'],
    ['tree', 'tree.txt'],
    ['dot', 'dot'],
    ['mermaid', 'mmd'],
    ['json', 'json'],
  ])('prints the %s format', async (format, extension) => {
    const r = await cli(['graph', '-f', VM_NETWORK, '-o', format]);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/vm-network.${extension}`);
    if (format === 'dot') expectRenderableDot(r.stdout);
    if (format === 'mermaid') expectWellFormedMermaid(r.stdout);
  });

  it('prints the resource lineage as a tree', async () => {
    const r = await cli(['graph', '-f', VM_NETWORK, '--resources', '-o', 'tree', '-q']);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot(`${SNAPSHOTS}/vm-network.resources.tree.txt`);
  });
});
