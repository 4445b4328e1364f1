import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosiLoading, scriptModule } from '../support/cosi-modules.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-lazy-commands-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const COMMANDS = ['apply', 'get', 'diff', 'check', 'graph', 'report', 'explain', 'watch', 'run'];
/** A command's own module (not its definition), initialized on either thread. */
const commandModule = (name: string) => (url: string) =>
  url === scriptModule('main', `src/cli/commands/${name}.ts`) ||
  url === scriptModule('worker', `src/cli/commands/${name}.ts`);
/** The URLs of `modules` inside the named installed packages. */
const fromPackages = (modules: readonly string[], names: readonly string[]): string[] =>
  modules.filter((url) => names.some((name) => url.includes(`/node_modules/${name}/`)));

/** The engine's runtime or the manifest reader, initialized on the main thread. */
const isEngineOrLoader = (url: string): boolean =>
  url === scriptModule('main', 'src/engine/runtime/runtime.ts') ||
  url === scriptModule('main', 'src/loaders/manifest-reader.ts');

describe("a command's module is loaded only when the command runs", () => {
  it('cosi --help lists every command without loading any of them', async () => {
    const run = await cosiLoading(['--help'], dir);
    expect(run.code).toBe(0);
    for (const name of COMMANDS) expect(run.stdout).toContain(`  ${name} [options]`);
    // The log sees the script's modules: the command table and each command's definition.
    expect(run.modules).toContain(scriptModule('main', 'src/cli/program.ts'));
    expect(run.modules).toContain(scriptModule('main', 'src/cli/commands/check-definition.ts'));
    for (const name of COMMANDS) expect(run.modules.filter(commandModule(name))).toEqual([]);
    expect(run.modules.filter(isEngineOrLoader)).toEqual([]);
  }, 60_000);

  it('cosi --help loads no installed package (commander is bundled), and no ES module', async () => {
    // Not a repeat of the run above: this one prints the help memo that run wrote in `dir`
    // (help-memo.ts), the path of every --help after the first.
    const run = await cosiLoading(['--help'], dir);
    expect(run.code).toBe(0);
    expect(run.modules.some((url) => url.endsWith('/dist/cli/cli-entry.cjs'))).toBe(true);
    expect(run.modules.filter((url) => url.includes('/node_modules/'))).toEqual([]);
    // The CLI's own code is the one script, run by the CommonJS entry: no file of the ES module
    // build loads (each would be a round of Node's ES module loader).
    expect(run.modules.filter((url) => /\/dist\/.*\.js$/.test(url))).toEqual([]);
  }, 60_000);

  it('cosi --version answers before the CLI loads', async () => {
    const run = await cosiLoading(['--version'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(run.modules.filter((url) => url.includes('/dist/'))).toEqual([]);
    expect(run.modules.filter((url) => url.startsWith('cosi-script:'))).toEqual([]);
  }, 60_000);

  it('cosi check of the example loads neither the terminal UI, nor etcd, nor CEL, nor diff', async () => {
    const run = await cosiLoading(['check', '-q', 'fixtures/vm-network'], dir);
    expect(run.code).toBe(0);
    // The project ran in the worker, whose code is the CLI's script (dist/cli/cli-script.cjs);
    // the log sees what it loads, by import and by require (jiti's bundle runs as a script with
    // a code cache). ajv is in the script, its runtime helpers too: the precompiled meta-schema
    // validator's `equal` was read from node_modules at every start.
    expect(run.modules.some((url) => url.endsWith('/dist/cli/cli-worker.cjs'))).toBe(true);
    expect(run.modules).toContain(scriptModule('worker', 'src/cli/commands/check.ts'));
    expect(run.modules).toContain(scriptModule('worker', 'src/loaders/schema-compiler.ts'));
    expect(fromPackages(run.modules, ['ajv', 'fast-deep-equal'])).toEqual([]);
    expect(fromPackages(run.modules, ['ink', 'react', 'etcd3', '@bufbuild/cel', 'diff'])).toEqual(
      [],
    );
    // fdir's own picomatch is the bundle's (tinyglobby's), not a second copy read at each start;
    // and the glob matcher (tinyglobby, fdir, picomatch) is not loaded at all: no path of the
    // command line is a glob.
    expect(fromPackages(run.modules, ['picomatch'])).toEqual([]);
    expect(
      run.modules.filter((url) => /node_modules\/(tinyglobby|fdir|picomatch)\//.test(url)),
    ).toEqual([]);
    // Nor Node's child_process (commander's, to spawn a subcommand; previous-revision's, for git).
    expect(run.modules).not.toContain('node:child_process');
    // Nor zlib (the built-in kinds' OpenAPI) nor net (IP addresses in pod specs): no document
    // of the example needs them.
    expect(run.modules).not.toContain('node:zlib');
    expect(run.modules).not.toContain('node:net');
    // Nor crypto: jiti requires it as it loads, for its own cache of transpiled files, which is
    // off (cosi keeps them, named by a hash of its own); the code caches are named by versions.
    expect(run.modules).toContain('node:v8');
    expect(run.modules).not.toContain('node:crypto');
  }, 60_000);

  it('cosi check runs its command in the worker; the main thread only parses the manifests ahead', async () => {
    const run = await cosiLoading(['check', '-q', '--timeout', '30s', 'fixtures/vm-network'], dir);
    expect(run.code).toBe(0);
    // The worker runs the command; the main thread reads --timeout, supervises, and meanwhile
    // parses the manifests the line names (with the command's definition, to find them).
    expect(run.modules).toContain(scriptModule('main', 'src/cli/supervised-cli.ts'));
    expect(run.modules).toContain(scriptModule('worker', 'src/cli/program.ts'));
    expect(run.modules).toContain(scriptModule('main', 'src/cli/preparse-manifests.ts'));
    expect(run.modules).toContain(scriptModule('main', 'src/loaders/parse/parse-manifest.ts'));
    expect(run.modules).toContain(scriptModule('worker', 'src/loaders/preparsed-manifests.ts'));
    const onMain = (source: string) => (url: string) =>
      url.startsWith(scriptModule('main', source));
    expect(run.modules.filter(onMain('src/cli/commands/'))).toEqual([
      scriptModule('main', 'src/cli/commands/check-definition.ts'),
    ]);
    expect(run.modules.filter(onMain('src/cli/program.ts'))).toEqual([]);
    expect(run.modules.filter(onMain('src/cli/cli-worker-body.ts'))).toEqual([]);
    // Nor the engine, nor the config's loader: nothing of the project runs on the main thread.
    expect(run.modules.filter(onMain('src/engine/runtime/'))).toEqual([]);
    expect(run.modules.filter(onMain('src/loaders/load-config.ts'))).toEqual([]);
    // The main thread runs the supervisor's script, without the commands: V8 reads the whole
    // top level of a script at each start, and the whole CLI's is the worker's alone.
    expect(run.modules.filter((url) => url.startsWith('cosi-script-file:'))).toEqual([
      'cosi-script-file:main:cli-supervisor.cjs',
      'cosi-script-file:worker:cli-script.cjs',
    ]);
  }, 60_000);

  it("the supervisor's script leaves the commands out, and is a fraction of the whole", async () => {
    const dist = path.resolve(import.meta.dirname, '../../dist/cli');
    const supervisor = await readFile(path.join(dist, 'cli-supervisor.cjs'), 'latin1');
    const whole = await readFile(path.join(dist, 'cli-script.cjs'), 'latin1');
    // Each module of a script is an initializer named by its source path.
    const has = (script: string, source: string): boolean => script.includes(`"${source}"() {`);
    for (const source of [
      'src/cli/supervised-cli.ts',
      'src/cli/worker-run.ts',
      'src/cli/preparse-manifests.ts',
    ]) {
      expect(has(supervisor, source)).toBe(true);
    }
    expect(has(supervisor, 'src/cli/commands/check-definition.ts')).toBe(true);
    for (const source of [
      'src/cli/program.ts',
      'src/cli/cli-worker-body.ts',
      'src/cli/commands/check.ts',
      'src/app/run-project.ts',
      'src/engine/runtime/runtime.ts',
      'src/loaders/load-config.ts',
    ]) {
      expect(has(whole, source)).toBe(true);
      expect(has(supervisor, source)).toBe(false);
    }
    expect(supervisor.length).toBeLessThan(whole.length / 3);
  });

  it("a check whose config ends the worker is reported by check's renderer, from the whole script", async () => {
    const project = await mkdtemp(path.join(dir, 'fault-'));
    await writeFile(
      path.join(project, 'cosi.config.ts'),
      [
        "import { defineConfig } from 'cosi';",
        // Past cosi's guard of process.exit: the worker ends as the config loads.
        '(process as unknown as { reallyExit: (code: number) => never }).reallyExit(0);',
        'export default defineConfig({});',
        '',
      ].join('\n'),
    );
    await writeFile(
      path.join(project, 'cm.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a, namespace: default }\n',
    );
    const run = await cosiLoading(['check', '-o', 'json', project], dir);
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout) as { cases: { findings: { message: string }[] }[] };
    expect(report.cases[0]?.findings[0]?.message).toMatch(/ended cosi's worker thread/);
    // Rendered on the main thread by check's own module, which the supervisor's script leaves
    // out: the whole script is run there for it.
    expect(run.modules).toContain('cosi-script-file:main:cli-supervisor.cjs');
    expect(run.modules).toContain('cosi-script-file:main:cli-script.cjs');
    expect(run.modules).toContain(scriptModule('main', 'src/cli/commands/check.ts'));
  }, 60_000);

  it('completion lists every command with its flags without loading any of them', async () => {
    const run = await cosiLoading(['completion', 'bash'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("apply) flags='");
    expect(run.stdout).toContain('--lease-ttl');
    for (const name of COMMANDS) expect(run.modules.filter(commandModule(name))).toEqual([]);
  }, 60_000);

  it("cosi apply loads no command's module on the main thread, nor packages it does not use", async () => {
    const run = await cosiLoading(['apply', '-f', 'fixtures/vm-network', '-q'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('NetworkConfig');
    // The main thread supervises: the command runs in the worker.
    expect(run.modules).toContain(scriptModule('worker', 'src/cli/commands/apply.ts'));
    for (const name of COMMANDS) {
      expect(
        run.modules.filter(
          (url) => commandModule(name)(url) && url.startsWith(scriptModule('main', '')),
        ),
      ).toEqual([]);
    }
    expect(run.modules.filter(isEngineOrLoader)).toEqual([]);
    expect(run.modules).toContain(scriptModule('worker', 'src/loaders/schema-compiler.ts'));
    expect(
      fromPackages(run.modules, [
        'ink',
        'react',
        'etcd3',
        '@bufbuild/cel',
        'diff',
        '@hpcc-js/wasm-graphviz',
        'chokidar',
        'prom-client',
      ]),
    ).toEqual([]);
  }, 60_000);

  it('cosi graph loads the WebAssembly Graphviz for -o svg only', async () => {
    const isGraphviz = (url: string): boolean => url.includes('/@hpcc-js/wasm-graphviz/');
    const dot = await cosiLoading(['graph', '-f', 'fixtures/vm-network', '-o', 'dot'], dir);
    expect(dot.code).toBe(0);
    expect(dot.modules.filter(isGraphviz)).toEqual([]);
    const svg = await cosiLoading(['graph', '-f', 'fixtures/vm-network', '-o', 'svg'], dir);
    expect(svg.code).toBe(0);
    expect(svg.stdout).toContain('<svg');
    expect(svg.modules.some(isGraphviz)).toBe(true);
  }, 60_000);
});
