/**
 * How long a user waits for a command that does little: `cosi --version`, `cosi --help` and
 * `cosi check` of the example project (fixtures/vm-network), each a whole process, paired with a
 * bare `node -e 0` in the same run (one of each in turn, so a busy machine slows both alike).
 * Prints the medians and their ratio (and the median of each run's ratio to its pair), in wall
 * time (processes run with nothing preloaded) and in CPU time (every thread, read by a preloaded
 * module in runs of their own: on a loaded machine the wall time measures the load). Targets (issue 36): --version and --help within
 * 1.5x of bare node, check of the example within 2.5x. Then issue 29's one document checked
 * against 16 CRDs (2 MB, `--definitions`), whole processes: under 0.5 s end to end.
 *
 * With `NODE_EXTRA_CA_CERTS` set (this machine sets it), Node 20 reads and parses that CA bundle
 * at every start, ~70 ms before any code runs, in bare node and cosi alike: a constant that
 * shrinks every ratio. The start-up table is then measured twice, as the environment is and
 * without that variable (as on a machine without it, and as Node 22 and later, which read the
 * bundle only when a TLS connection needs it).
 *
 * Every table runs with a temporary directory of its own (`TMPDIR`), where cosi keeps its code
 * caches and transpiled configs, warmed by unmeasured runs: the caches are those a user's
 * install has after running the command, not those the repository's test runs left in the
 * shared one. A command's worker cache holds every function of every run that reached further
 * than the one before (see `CachedScript.saveCache`), and V8 reads all of it at each start:
 * after the test suite, the worker's cache for `check` was 2.6 MB where the example's own is
 * 1.9 MB, some 10 ms more CPU for each run.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  medianRun,
  printTable,
  quick,
  runProcess,
  runProcessWall,
  type ProcessRun,
} from './harness.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const cli = path.join(root, 'bin/cosi.js');
const RUNS = quick ? 7 : 21;
/**
 * Unmeasured runs of a command before its measured ones: the first compiles and saves its code
 * caches; one that reaches further than the first (after a full collection the first may save
 * none) saves them again.
 */
const WARM_UP_RUNS = 3;

/** The commands measured, by label, with their target ratio to bare node. */
const COMMANDS: readonly (readonly [string, readonly string[], number])[] = [
  ['cosi --version', ['--version'], 1.5],
  ['cosi --help', ['--help'], 1.5],
  ['cosi check fixtures/vm-network', ['check', '-q', 'fixtures/vm-network'], 2.5],
];

const CRD_BUNDLE = ['fixtures/real-crds/cert-manager/crds', 'fixtures/real-crds/gateway-api/crds'];
const CERTIFICATE =
  'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: { name: web, namespace: apps }\nspec:\n  secretName: web-tls\n  dnsNames: [web.example.org]\n  issuerRef: { name: letsencrypt, kind: ClusterIssuer }\n';

/** The median of `values`. */
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1] as number;

/**
 * `command` and bare node in turn, after one unmeasured run of each (file cache, caches): the
 * wall time of plain processes, then CPU time and peak memory in runs with the preload.
 */
async function paired(
  command: readonly string[],
  env?: NodeJS.ProcessEnv,
): Promise<{ node: ProcessRun; cosi: ProcessRun; pairRatio: number }> {
  const bareWall: number[] = [];
  const wall: number[] = [];
  const ratios: number[] = [];
  await runProcessWall(['-e', '0'], root, env);
  for (let i = 0; i < WARM_UP_RUNS; i++) await runProcessWall(command, root, env);
  for (let i = 0; i < RUNS; i++) {
    bareWall.push(await runProcessWall(['-e', '0'], root, env));
    wall.push(await runProcessWall(command, root, env));
    ratios.push((wall.at(-1) as number) / (bareWall.at(-1) as number));
  }
  const bare: ProcessRun[] = [];
  const runs: ProcessRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(await runProcess(['-e', '0'], root, env));
    runs.push(await runProcess(command, root, env));
  }
  return {
    node: { ...medianRun(bare), ms: median(bareWall) },
    cosi: { ...medianRun(runs), ms: median(wall) },
    // Each run over the bare run just before it: a machine whose speed drifts during the
    // bench moves both of a pair alike.
    pairRatio: median(ratios),
  };
}

/** The environments the start-up table is measured in: as given, and without the CA bundle. */
function environments(): { title: string; env?: NodeJS.ProcessEnv }[] {
  const given = process.env.NODE_EXTRA_CA_CERTS;
  if (given === undefined || given === '') return [{ title: '' }];
  const without = { ...process.env };
  delete without.NODE_EXTRA_CA_CERTS;
  return [
    { title: ` (environment as given: NODE_EXTRA_CA_CERTS=${given})` },
    { title: ' (without NODE_EXTRA_CA_CERTS)', env: without },
  ];
}

export async function run(): Promise<void> {
  for (const { title, env } of environments()) {
    await withOwnCaches(env, (cached) => startUpTable(title, cached));
  }
  await withOwnCaches(undefined, (cached) => certificateTable(cached));
}

/**
 * Runs `measure` with `env` (the process's own when undefined) given a new temporary directory
 * (`TMPDIR`, where cosi keeps its caches), removed afterwards.
 */
async function withOwnCaches(
  env: NodeJS.ProcessEnv | undefined,
  measure: (env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-startup-bench-caches-'));
  try {
    await measure({ ...(env ?? process.env), TMPDIR: dir });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function startUpTable(title: string, env: NodeJS.ProcessEnv | undefined): Promise<void> {
  const rows: string[][] = [];
  for (const [label, args, target] of COMMANDS) {
    const { node, cosi, pairRatio } = await paired([cli, ...args], env);
    const ratio = cosi.ms / node.ms;
    rows.push([
      label,
      node.ms.toFixed(0),
      cosi.ms.toFixed(0),
      `${ratio.toFixed(2)}x`,
      `${pairRatio.toFixed(2)}x`,
      `${target}x`,
      ratio <= target ? 'yes' : 'NO',
      `${node.cpuMs.toFixed(0)} / ${cosi.cpuMs.toFixed(0)}`,
      `${(cosi.cpuMs / node.cpuMs).toFixed(2)}x`,
      (cosi.maxRss / 1024).toFixed(0),
    ]);
  }
  printTable(
    `start-up: whole processes, median of ${RUNS}, each paired with a bare node -e 0${title}`,
    [
      'command',
      'node -e 0 ms',
      'cosi ms',
      'ratio',
      'pair ratio',
      'target',
      'met',
      'CPU ms node / cosi',
      'CPU ratio',
      'peak MB',
    ],
    rows,
  );
}

async function certificateTable(env: NodeJS.ProcessEnv): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-startup-bench-'));
  try {
    await writeFile(path.join(dir, 'certificate.yaml'), CERTIFICATE);
    const definitions = CRD_BUNDLE.flatMap((d) => ['--definitions', d]);
    const { node, cosi } = await paired([cli, 'check', ...definitions, '-f', dir, '-q'], env);
    printTable(
      `one Certificate against 16 CRDs (2 MB, --definitions), whole processes, median of ${RUNS}`,
      ['command', 'node -e 0 ms', 'cosi ms', 'target', 'met', 'CPU ms node / cosi', 'peak MB'],
      [
        [
          'cosi check --definitions ...',
          node.ms.toFixed(0),
          cosi.ms.toFixed(0),
          '500 ms',
          cosi.ms <= 500 ? 'yes' : 'NO',
          `${node.cpuMs.toFixed(0)} / ${cosi.cpuMs.toFixed(0)}`,
          (cosi.maxRss / 1024).toFixed(0),
        ],
      ],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
