/**
 * Loading an RGD whose expressions are all type-checked whole (issue 32, point 1): one RGD of N
 * ConfigMap resources (200, 800 and 3,200; --quick: 100 and 400), each referencing the one
 * before, with an operator, a function call, a macro over a forEach resource's list and a
 * string template; against a baseline RGD of the same resources whose expressions are plain
 * field paths (checked against the schema, not by the CEL checker), as many and as distinct. Times the load (read,
 * compile, check: `readProjectManifests`), best of three, sides alternating, each load cold (a
 * collection first, so nothing compiled by the load before is reused); prints the ratio and the
 * growth per step (linear: time grows as the size).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type * as ConfigModule from '../src/app/project-config.js';
import type * as ManifestsModule from '../src/app/read-project-manifests.js';
import { formatCount, growth, printTable, sizes } from './harness.js';

const SIZES = sizes([200, 800, 3_200], [100, 400]);
const RUNS = 3;

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

const header = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: thing.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Thing
    spec:
      name: string
      size: integer
      zones: '[]string'
  resources:
    - id: zoned
      forEach:
        - zone: \${schema.spec.zones}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name + "-" + zone}
`;

/** A resource `r{i}` reading `r{i-1}`: whole expressions, or plain field paths. */
const resource = (i: number, whole: boolean): string => {
  const previous = i === 0 ? 'schema' : `r${i - 1}`;
  const name = i === 0 ? 'schema.spec.name' : `${previous}.metadata.name`;
  const data = whole
    ? `          a: \${${name} + "-${i}"}
          b: \${string(size(schema.spec.zones) + schema.spec.size)}
          c: \${zoned.map(z, z.metadata.name).join(",")}
          d: x-\${${i === 0 ? 'schema.spec.name' : `${previous}.data.?a.orValue("")`}}`
    : // Distinct sources, as on the other side (a repeated source compiles once).
      `          a: \${${name}}
          b: \${${i === 0 ? 'schema.spec.name' : `${previous}.data.a`}}
          c: \${${i === 0 ? 'schema.spec.name' : `${previous}.data.b`}}
          d: x-\${${i === 0 ? 'schema.spec.name' : `${previous}.data.c`}}`;
  return `    - id: r${i}
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${${name}}-${i}
        data:
${data}
`;
};

const rgd = (n: number, whole: boolean): string =>
  header + Array.from({ length: n }, (_, i) => resource(i, whole)).join('');

interface Modules {
  readonly loadProjectConfig: typeof ConfigModule.loadProjectConfig;
  readonly readProjectManifests: typeof ManifestsModule.readProjectManifests;
}

/** One load of the tree in `dir`: its time; throws on a finding (no false findings here). */
async function loadOnce(m: Modules, dir: string): Promise<number> {
  const options = { cwd: dir, files: [dir], stable: true };
  const config = await m.loadProjectConfig(options);
  // Cold: what the previous load compiled is let go (compiled expressions are held weakly).
  (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  const read = await m.readProjectManifests(options, config);
  const ms = performance.now() - started;
  const errors = read.findings.filter((f) => f.severity === 'error' && f.code !== 'empty-input');
  if (errors.length > 0) throw new Error(`${dir}: ${errors[0]?.code} ${errors[0]?.message}`);
  return ms;
}

export async function run(): Promise<void> {
  const m: Modules = {
    loadProjectConfig: ((await import(dist('app/project-config.js'))) as typeof ConfigModule)
      .loadProjectConfig,
    readProjectManifests: (
      (await import(dist('app/read-project-manifests.js'))) as typeof ManifestsModule
    ).readProjectManifests,
  };
  const root = await mkdtemp(path.join(tmpdir(), 'cosi-kro-load-bench-'));
  try {
    const rows: string[][] = [];
    const times: number[] = [];
    for (const [index, n] of SIZES.entries()) {
      const dirs = { whole: path.join(root, `whole-${n}`), plain: path.join(root, `plain-${n}`) };
      for (const [side, dir] of Object.entries(dirs)) {
        await mkdir(dir);
        await writeFile(path.join(dir, 'rgd.yaml'), rgd(n, side === 'whole'));
      }
      const best = { whole: Infinity, plain: Infinity };
      for (let i = 0; i <= RUNS; i++) {
        for (const side of ['whole', 'plain'] as const) {
          const ms = await loadOnce(m, dirs[side]);
          // The first run of each side warms up.
          if (i > 0) best[side] = Math.min(best[side], ms);
        }
      }
      times.push(best.whole);
      rows.push([
        formatCount(n),
        formatCount(n * 5 + 1),
        best.plain.toFixed(0),
        best.whole.toFixed(0),
        `${(best.whole / best.plain).toFixed(2)}x`,
        growth(SIZES, times, index),
      ]);
    }
    printTable(
      'kro: loading one RGD, every expression type-checked whole vs plain field paths',
      ['resources', 'expressions', 'plain ms', 'whole ms', 'whole / plain', 'whole growth'],
      rows,
      [
        'load: read, compile and check the RGD (readProjectManifests), cold; best of 3, sides alternating',
      ],
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
