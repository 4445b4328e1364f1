import { appendFile, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const VM_NETWORK = 'fixtures/vm-network';

/** Graphviz installed (.ci/run installs it): the DOT output is laid out by `dot` too. */
const HAS_DOT = spawnSync('dot', ['-V']).status === 0;

/**
 * Parses the SVG with a strict XML parser (which throws on anything not well-formed) and
 * returns the title of every node group, the key Graphviz keeps from the DOT source.
 */
function svgNodeTitles(svg: string): string[] {
  const parser = new SaxesParser();
  const titles: string[] = [];
  const open: string[] = [];
  let inNode = false;
  let title: string | undefined;
  parser.on('opentag', (tag) => {
    open.push(tag.name);
    if (tag.name === 'g') inNode = tag.attributes.class === 'node';
    if (tag.name === 'title' && inNode) title = '';
  });
  parser.on('text', (text) => {
    if (title !== undefined) title += text;
  });
  parser.on('closetag', (tag) => {
    open.pop();
    if (tag.name === 'title' && title !== undefined) {
      titles.push(title);
      title = undefined;
      inNode = false;
    }
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(svg).close();
  expect(open).toEqual([]);
  return titles.sort();
}

async function graph(args: string[]): Promise<string> {
  const r = await cli(['graph', '-f', VM_NETWORK, ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

interface JsonView {
  controllers: { name: string }[];
  types: string[];
  resources?: { type: string; resources: { namespace: string; id: string }[] }[];
}

const focusedIds = (view: JsonView): string[] =>
  (view.resources ?? []).flatMap((g) => g.resources.map((r) => `${g.type}/${r.id}`)).sort();

// Loading the WebAssembly Graphviz takes a few seconds on a loaded machine.
describe('cosi graph -o svg', { timeout: 30_000 }, () => {
  it('writes well-formed SVG with one node per controller and type', async () => {
    const svg = await graph(['-o', 'svg']);
    const view = JSON.parse(await graph(['-o', 'json'])) as JsonView;
    const titles = svgNodeTitles(svg);
    expect(titles).toEqual(
      [
        ...view.controllers.map((c) => `controller:${c.name}`),
        ...view.types.map((t) => `type:${t}`),
      ].sort(),
    );
  });

  it('draws the same nodes as the DOT output, with its styles, resources included', async () => {
    const args = ['--resources', '--quiet', '--stable'];
    const dot = await graph([...args, '-o', 'dot']);
    const svg = await graph([...args, '-o', 'svg']);
    const declared = [...dot.matchAll(/^\s+"([^"]+)" \[label=/gm)].map((m) => m[1]).sort();
    expect(declared.length).toBeGreaterThan(10);
    expect(svgNodeTitles(svg)).toEqual(declared);
    // Clusters per type, bold exclusive outputs, dotted and dashed inputs, as `dot -Tsvg` draws them.
    expect(svg).toContain('<title>cluster_VMs.example.org</title>');
    expect(svg).toContain('stroke-width="2"');
    expect(svg).toContain('stroke-dasharray="1,5"');
    expect(svg).toContain('stroke-dasharray="5,2"');
  });

  it('nests a cluster per namespace in a type whose instances live in several', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-graph-svg-'));
    try {
      const note = (ns: string, id: string): string =>
        `---\nmetadata: { type: Notes.example.org, namespace: ${ns}, id: ${id} }\nspec: {}\n`;
      await writeFile(
        path.join(dir, 'notes.yaml'),
        'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: notes.example.org }\n' +
          'spec: { type: Notes.example.org }\n' +
          note('one', 'a') +
          note('one', 'b') +
          note('two', 'c'),
      );
      const r = await cli(['graph', '-f', dir, '--resources', '--quiet', '-o', 'svg']);
      expect(r.code).toBe(0);
      expect(svgNodeTitles(r.stdout)).toHaveLength(3);
      const clusters = [
        ...r.stdout.matchAll(/<g id="clust\d+" class="cluster">\n<title>([^<]+)<\/title>/g),
      ];
      expect(clusters.map((m) => m[1]).sort()).toEqual([
        'cluster_Notes.example.org',
        'cluster_Notes.example.org/one',
        'cluster_Notes.example.org/two',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("draws a type's resources top down in the order every listing gives them, its namespaces and the types too", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-graph-svg-'));
    try {
      const doc = (type: string, ns: string, id: string): string =>
        `---\nmetadata: { type: ${type}, namespace: ${ns}, id: ${id} }\nspec: {}\n`;
      await writeFile(
        path.join(dir, 'notes.yaml'),
        'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: notes.example.org }\n' +
          'spec: { type: Notes.example.org }\n' +
          '---\nmetadata: { type: ResourceDefinitions.meta.cosi.dev, id: memos.example.org }\n' +
          'spec: { type: Memos.example.org }\n' +
          ['a', 'b', 'c', 'd'].map((id) => doc('Notes.example.org', 'one', id)).join('') +
          ['e', 'f'].map((id) => doc('Notes.example.org', 'two', id)).join('') +
          ['x', 'y', 'z'].map((id) => doc('Memos.example.org', 'default', id)).join(''),
      );
      const r = await cli(['graph', '-f', dir, '--resources', '--quiet', '-o', 'svg']);
      expect(r.code, r.stderr).toBe(0);
      // Each node's and box's title, by the height of its label (SVG's y grows downwards).
      const topDown = (kind: 'node' | 'cluster'): string[] =>
        [
          ...r.stdout.matchAll(
            new RegExp(
              `<g id="[^"]+" class="${kind}">\\n<title>([^<]+)</title>[\\s\\S]*?<text [^>]*y="([-\\d.]+)"`,
              'g',
            ),
          ),
        ]
          .sort((p, q) => Number(p[2]) - Number(q[2]))
          .map((m) => (m[1] ?? '').replace(/^resource:[^/]+\/|^cluster_/g, ''));
      expect(topDown('node')).toEqual([
        'Memos.example.org/x',
        'Memos.example.org/y',
        'Memos.example.org/z',
        'Notes.example.org/a',
        'Notes.example.org/b',
        'Notes.example.org/c',
        'Notes.example.org/d',
        'Notes.example.org/e',
        'Notes.example.org/f',
      ]);
      expect(topDown('cluster')).toEqual([
        'Memos.example.org',
        'Notes.example.org',
        'Notes.example.org/one',
        'Notes.example.org/two',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lays unconnected types out side by side, not in one column, and keeps the labels of a connected graph', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-graph-svg-'));
    try {
      // Twelve types of four resources each and no controller: twelve unconnected parts, as
      // a repository of Kubernetes manifests draws.
      const types = Array.from({ length: 12 }, (_, t) => `Kind${String.fromCharCode(97 + t)}s`);
      await writeFile(
        path.join(dir, 'kinds.yaml'),
        types
          .map(
            (type) =>
              `---\nmetadata: { type: ResourceDefinitions.meta.cosi.dev, id: ${type.toLowerCase()}.example.org }\n` +
              `spec: { type: ${type}.example.org }\n` +
              [1, 2, 3, 4]
                .map(
                  (i) => `---\nmetadata: { type: ${type}.example.org, id: item-${i} }\nspec: {}\n`,
                )
                .join(''),
          )
          .join(''),
      );
      const size = (svg: string): number[] =>
        (/<svg [^>]*viewBox="([^"]+)"/.exec(svg)?.[1] ?? '').split(' ').map(Number).slice(2);
      const r = await cli(['graph', '-f', dir, '--resources', '--quiet', '-o', 'svg']);
      expect(r.code, r.stderr).toBe(0);
      expect(svgNodeTitles(r.stdout)).toHaveLength(48);
      const [width = 0, height = 0] = size(r.stdout);
      // One column was 12 boxes tall and one wide: about 3,000 by 150 points.
      expect(height).toBeLessThan(2 * width);
      if (HAS_DOT) {
        const dot = await cli(['graph', '-f', dir, '--resources', '--quiet', '-o', 'dot']);
        const native = spawnSync('dot', ['-Tsvg'], { input: dot.stdout, encoding: 'utf8' });
        expect(native.status, native.stderr).toBe(0);
        const [w = 0, h = 0] = size(native.stdout);
        expect(h).toBeLessThan(2 * w);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // A kro RGD's render order apart from its controller, and its status write labelled: drawn
    // unpacked, as packing would drop the label; every label drawn.
    const args = ['graph', '-f', 'fixtures/kro-webapp', '--resources', '--quiet'];
    const dot = await cli([...args, '-o', 'dot']);
    const labels = [...dot.stdout.matchAll(/ -> .*label="([^"]+)"/g)].map((m) => m[1]);
    expect(labels).toContain('status');
    const drawn = await cli([...args, '-o', 'svg']);
    for (const label of labels) expect(drawn.stdout).toContain(`>${label}</text>`);
  });

  it('cuts a long id in the middle where it is drawn, its whole key kept as the node title', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-graph-svg-'));
    try {
      // Kubernetes names may be 253 characters; two that differ only at the end, and a short one.
      const long = `web-${'frontend-replica-set-'.repeat(11)}end`;
      const ids = [`${long}-1`, `${long}-2`, 'short'];
      await writeFile(
        path.join(dir, 'notes.yaml'),
        'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: notes.example.org }\n' +
          'spec: { type: Notes.example.org }\n' +
          ids
            .map((id) => `---\nmetadata: { type: Notes.example.org, id: ${id} }\nspec: {}\n`)
            .join(''),
      );
      const args = ['graph', '-f', dir, '--resources', '--quiet'];
      const r = await cli([...args, '-o', 'svg']);
      expect(r.code, r.stderr).toBe(0);
      expect(svgNodeTitles(r.stdout)).toEqual(
        ids.map((id) => `resource:default/Notes.example.org/${id}`).sort(),
      );
      const texts = [
        ...r.stdout.matchAll(/<g id="[^"]+" class="node">[\s\S]*?<text [^>]*>([^<]*)</g),
      ]
        // Graphviz writes `-` as `&#45;`.
        .map((m) =>
          (m[1] ?? '').replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))),
        )
        .sort();
      expect(texts).toEqual([
        'default/short',
        `default/${long.slice(0, 32)}…${long.slice(-21)}-1`,
        `default/${long.slice(0, 32)}…${long.slice(-21)}-2`,
      ]);
      for (const text of texts) expect(Array.from(text).length).toBeLessThanOrEqual(64);
      // Drawn whole, one 250-character label made the drawing about 1,800 points wide.
      const width = Number((/<svg [^>]*viewBox="[-\d.]+ [-\d.]+ ([\d.]+)/.exec(r.stdout) ?? [])[1]);
      expect(width).toBeGreaterThan(0);
      expect(width).toBeLessThan(700);
      // The DOT and Mermaid outputs draw the same labels; the DOT names stay the whole keys.
      const dot = (await cli([...args, '-o', 'dot'])).stdout;
      expect(dot).toContain(`"resource:default/Notes.example.org/${long}-1" [label="${texts[1]}"`);
      const mermaid = (await cli([...args, '-o', 'mermaid'])).stdout;
      expect(mermaid).toContain(`["${texts[2]}"]`);
      expect(mermaid).not.toContain(long);
      // The text formats keep the whole id.
      expect((await cli([...args, '-o', 'text'])).stdout).toContain(`${long}-2`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives the same SVG for the same project, run after run', async () => {
    const args = ['--resources', '--quiet', '--stable', '-o', 'svg'];
    expect(await graph(args)).toBe(await graph(args));
  });
});

describe('cosi graph --focus', { timeout: 30_000 }, () => {
  it('keeps one resource and those one lineage hop from it, in every format', async () => {
    const view = JSON.parse(
      await graph(['--focus', 'vm/web-1', '--quiet', '-o', 'json']),
    ) as JsonView;
    expect(focusedIds(view)).toEqual([
      'NetworkConfigs.example.org/web-1',
      'Placements.example.org/web-1',
      'VMs.example.org/web-1',
    ]);
    expect(view.controllers.map((c) => c.name)).toEqual([
      'PlacementController',
      'vmnet.NetworkConfigController',
    ]);
    const svg = await graph(['--focus', 'vm/web-1', '--quiet', '-o', 'svg']);
    expect(svgNodeTitles(svg)).toEqual([
      'controller:PlacementController',
      'controller:vmnet.NetworkConfigController',
      'resource:default/NetworkConfigs.example.org/web-1',
      'resource:default/Placements.example.org/web-1',
      'resource:default/VMs.example.org/web-1',
    ]);
    const text = await graph(['--focus', 'vm/web-1', '--quiet', '-o', 'tree']);
    expect(text).toContain('web-1');
    expect(text).not.toContain('web-2');
  });

  it('widens hop by hop with --depth, and takes NAMESPACE/TYPE/ID', async () => {
    const at = async (depth: string): Promise<string[]> =>
      focusedIds(
        JSON.parse(
          await graph(['--focus', 'default/vm/web-1', '--depth', depth, '--quiet', '-o', 'json']),
        ) as JsonView,
      );
    expect(await at('0')).toEqual(['VMs.example.org/web-1']);
    const two = await at('2');
    expect(two).toContain('Hosts.example.org/node-a');
    expect(two).not.toContain('VMs.example.org/web-2');
    const all = await at('all');
    expect(all.length).toBeGreaterThan(two.length);
    expect(all).toContain('VMs.example.org/web-2');
  });

  it('takes an id that holds a slash, with or without its namespace', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-graph-focus-'));
    try {
      await cp(VM_NETWORK, dir, { recursive: true });
      await appendFile(
        path.join(dir, 'vms.yaml'),
        '---\nmetadata:\n  type: vm\n  id: lab/web\nspec:\n  cpus: 1\n  image: debian\n  host: node-a\n',
      );
      for (const focus of ['vm/lab/web', 'default/vm/lab/web', 'VMs.example.org/lab/web']) {
        const r = await cli([
          'graph',
          '-f',
          dir,
          '--focus',
          focus,
          '--depth',
          '0',
          '--quiet',
          '-o',
          'json',
        ]);
        expect(r.stderr, focus).toBe('');
        expect(focusedIds(JSON.parse(r.stdout) as JsonView), focus).toEqual([
          'VMs.example.org/lab/web',
        ]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 for a focus that is malformed, names no resource, or comes with --type', async () => {
    const cases: [string[], string][] = [
      [['--focus', 'web-1'], '--focus: expected TYPE/ID or NAMESPACE/TYPE/ID'],
      [['--focus', 'vm/nope'], '--focus: no resource "vm/nope"'],
      [['--focus', 'nope/web-1'], '--focus: resource type "nope" is not registered'],
      [['--focus', 'vm/web-1', '-t', 'vm'], '--focus: give it alone'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['graph', '-f', VM_NETWORK, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
    }
  });
});

describe('cosi graph -o svg --max-nodes', { timeout: 60_000 }, () => {
  const refusal =
    /^cosi: graph -o svg: (\d[\d,]*) nodes, more than --max-nodes ([\d,]+) \(Graphviz takes minutes for a few thousand\): draw part of it with --focus TYPE\/ID --depth N \(or -t TYPE, -c NAME\), write -o dot, or raise --max-nodes \(0: no limit\)\n$/;

  it('refuses, exit 2 and one line, a graph of more nodes than the limit; lays out one of as many', async () => {
    // vm-network with --resources: 3 controllers and 13 resources (their types are clusters).
    const over = await cli([
      'graph',
      '-f',
      VM_NETWORK,
      '--resources',
      '-o',
      'svg',
      '--max-nodes',
      '15',
    ]);
    expect(over.code).toBe(2);
    expect(over.stdout).toBe('');
    expect(refusal.exec(over.stderr)?.slice(1)).toEqual(['16', '15']);
    const at = await cli([
      'graph',
      '-f',
      VM_NETWORK,
      '--resources',
      '-q',
      '-o',
      'svg',
      '--max-nodes',
      '16',
    ]);
    expect(at.code).toBe(0);
    expect(svgNodeTitles(at.stdout)).toHaveLength(16);
    // Without --resources: 3 controllers and 5 types.
    const declared = await cli(['graph', '-f', VM_NETWORK, '-o', 'svg', '--max-nodes', '7']);
    expect(declared.code).toBe(2);
    expect(refusal.exec(declared.stderr)?.slice(1)).toEqual(['8', '7']);
    // What the message suggests passes: the graph cut around one resource.
    const focused = await cli([
      'graph',
      '-f',
      VM_NETWORK,
      '--focus',
      'vm/web-1',
      '-q',
      '-o',
      'svg',
      '--max-nodes',
      '5',
    ]);
    expect(focused.code).toBe(0);
    expect(svgNodeTitles(focused.stdout)).toHaveLength(5);
  });

  it('refuses above 1,000 nodes by default, for SVG only; 0 lifts the limit', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-graph-max-nodes-'));
    try {
      const notes = Array.from(
        { length: 1_001 },
        (_, i) => `---\nmetadata: { type: Notes.example.org, id: n-${i} }\nspec: {}\n`,
      );
      await writeFile(
        path.join(dir, 'notes.yaml'),
        'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: notes.example.org }\n' +
          'spec: { type: Notes.example.org }\n' +
          notes.join(''),
      );
      const r = await cli(['graph', '-f', dir, '--resources', '-q', '-o', 'svg']);
      expect(r.code).toBe(2);
      expect(refusal.exec(r.stderr)?.slice(1)).toEqual(['1,001', '1,000']);
      const dot = await cli(['graph', '-f', dir, '--resources', '-q', '-o', 'dot']);
      expect(dot.code).toBe(0);
      expect(dot.stdout.match(/\[label=/g)).toHaveLength(1_001);
      const unlimited = await cli([
        'graph',
        '-f',
        dir,
        '--resources',
        '-q',
        '-o',
        'svg',
        '--max-nodes',
        '0',
      ]);
      expect(unlimited.code).toBe(0);
      expect(svgNodeTitles(unlimited.stdout)).toHaveLength(1_001);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 for a limit that is not a whole number', async () => {
    const r = await cli(['graph', '-f', VM_NETWORK, '-o', 'svg', '--max-nodes', '1e3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'cosi: --max-nodes: expected a whole number of nodes (0: no limit), got "1e3"\n',
    );
  });
});
