/**
 * `npm run build`: the declarations from tsc, the code from esbuild, bundled. The declarations
 * have maps into `src/`, which the package ships too, so that an editor's go-to-definition on a
 * name from `cosi` opens its TypeScript source, not its `.d.ts` (`tsconfig.build.json`).
 *
 * Why bundled: a command's start-up was mostly Node resolving, reading and linking some 420
 * modules, twice over for a command that runs in a worker (see docs/performance.md). The bundle
 * keeps one file at its place for every module that is reached by its path: the package's
 * entries, the worker's entry, each command (loaded lazily by the command table) and the modules
 * loaded on demand; the rest is shared chunks in `dist/chunks/`, so each module still has one
 * instance per thread.
 *
 * The packages a common command loads on every start (`scripts/bundled-packages.json`, with what
 * they import) are
 * compiled in; the others stay imports of the installed package: those a command loads only when
 * it needs them (the terminal UI, etcd, CEL, Graphviz, jiti with its TypeScript transpiler), so
 * that the laziness stays visible and their files (WebAssembly, a lazily required transpiler)
 * stay where they expect to be.
 *
 * The CLI's own code (`src/cli/cli-script.ts`: the main thread's `main` and the worker's
 * `runCliWorker`, with all they import) is built a second time, as one CommonJS script: the
 * process's entry (`src/cli/cli-entry.ts`, required by `bin/cosi.js`) and the worker's entry
 * (`src/cli/cli-worker.ts`) run it with a V8 code cache (`src/cli/cached-script.ts`), which
 * Node 20 has only for scripts. Both entries are small CommonJS scripts too, given the script's
 * hash: an ES module entry sets up Node's ES module loader first, and hashing 2 MB costs as much.
 * The main thread of a command run once in a worker runs a third script, the supervisor's
 * (`src/cli/supervisor-script.ts`): the same code without the commands, whose top level V8 reads
 * in a fifth of the time.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import process from 'node:process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The package's version, written into the code (`src/cli/version.ts`). */
const VERSION_DEFINE = {
  __COSI_VERSION__: JSON.stringify(
    JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')).version,
  ),
};

/** Packages compiled into the bundle, with everything they import. */
const BUNDLED = new Set(
  JSON.parse(await readFile(path.join(ROOT, 'scripts/bundled-packages.json'), 'utf8')),
);

/** Modules reached by their path, each kept as a file of its own (relative to `src/`). */
const ENTRIES = [
  'index.ts',
  'loaders/index.ts',
  'testing/index.ts',
  'testing/register-matchers.ts',
  'cli/main.ts',
  'cli/scenario-worker.ts',
  'cli/run/run-worker.ts',
  'loaders/kro/graph-cel.ts',
  'loaders/cel/cel-rule-engine.ts',
  'loaders/kubernetes/kyverno-jmespath.ts',
  // Tests and benchmarks load these by path.
  'loaders/cel/cel-rules.ts',
  'loaders/definition-paths.ts',
  'loaders/manifest-reader.ts',
  'app/converge-project.ts',
  'app/project-config.ts',
  'app/project-session.ts',
  'app/project.ts',
  'app/read-project-manifests.ts',
  'app/resource-query.ts',
  'app/state-diff.ts',
  'app/user-code-heartbeat.ts',
  'app/watch-session.ts',
  'cli/program.ts',
  'cli/render/graph/svg.ts',
  'cli/render/resource-diff.ts',
  'cli/render/resources.ts',
  'cli/ui/round-view.ts',
  'cli/ui/round-view-transfer.ts',
  'cli/ui/watch-app.tsx',
  // Imported by the CLI's script (see CLI_SCRIPT), from beside it.
  'cli/ui/watch-screen.tsx',
  'engine/state/state-snapshot.ts',
];

/** The CLI's code, built as one script (see `cached-script.ts`), from `src/`. */
const CLI_SCRIPT = 'cli/cli-script.ts';

/**
 * The main thread's script for a command run once in a worker (see `supervisor-script.ts`): the
 * CLI's script without the commands' modules and the command table.
 */
const SUPERVISOR_SCRIPT = 'cli/supervisor-script.ts';

/**
 * The entries that run that script, CommonJS scripts with Node's modules only: the process's
 * (`bin/cosi.js` requires it; it starts a project command's worker first, see `early-worker.ts`)
 * and the worker's.
 */
const SCRIPT_RUNNERS = ['cli/cli-entry.ts', 'cli/cli-worker.ts'];

/**
 * Packages that wait at their top level (a top-level `await`): `require` cannot load them, so
 * the CLI's script must not (see `watchScreenOutside`).
 */
const AWAITING_PACKAGES = ['ink'];

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Bare imports of cosi's own code stay imports unless the package is in `BUNDLED`. */
const externals = {
  name: 'cosi-externals',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true };
      if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      return BUNDLED.has(packageOf(args.path)) ? undefined : { external: true };
    });
  },
};

/**
 * fdir (under tinyglobby) requires picomatch as it starts, for a `glob()` of its own that
 * tinyglobby does not call (it gives fdir its own matcher): a second picomatch, five files read
 * from node_modules and compiled at every start of a worker. Its `require` becomes an import
 * of the picomatch the bundle has already (tinyglobby's). The build fails if fdir changed.
 */
const fdirPicomatch = {
  name: 'cosi-fdir-picomatch',
  setup(context) {
    context.onLoad(
      { filter: /[\\/]node_modules[\\/]fdir[\\/]dist[\\/]index\.mjs$/ },
      async (args) => {
        const text = await readFile(args.path, 'utf8');
        const optional = '__require.resolve("picomatch");\n\tpm = __require("picomatch");';
        if (!text.includes(optional)) {
          throw new Error(`${args.path} no longer requires picomatch as fdirPicomatch expects`);
        }
        return {
          contents: `import __cosiPicomatch from "picomatch";\n${text.replace(optional, 'pm = __cosiPicomatch;')}`,
          loader: 'js',
        };
      },
    );
  },
};

/**
 * commander requires `node:child_process` as it loads, to spawn a subcommand's executable
 * (cosi has none): some milliseconds of every start, the main thread's and the worker's. It
 * is required when a spawn asks for it instead. The build fails if commander changed.
 */
const commanderSpawn = {
  name: 'cosi-commander-spawn',
  setup(context) {
    context.onLoad(
      { filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ },
      async (args) => {
        const text = await readFile(args.path, 'utf8');
        const eager = "const childProcess = require('node:child_process');";
        if (
          !text.includes(eager) ||
          (text.match(/childProcess\.\w+/g) ?? []).some((use) => use !== 'childProcess.spawn')
        ) {
          throw new Error(`${args.path} no longer uses child_process as commanderSpawn expects`);
        }
        return {
          contents: text.replace(
            eager,
            "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
          ),
          loader: 'js',
        };
      },
    );
  },
};

/**
 * In the CLI's script, the watch screen (ink's, see `AWAITING_PACKAGES`) stays an `import()` of
 * its own ES module, `./ui/watch-screen.js`: the script and its runners are in `dist/cli/`, where
 * the path resolves from.
 */
const watchScreenOutside = {
  name: 'cosi-watch-screen-outside',
  setup(context) {
    const screen = path.join(ROOT, 'src/cli/ui/watch-screen.js');
    context.onResolve({ filter: /\/ui\/watch-screen\.js$/ }, (args) =>
      path.resolve(args.resolveDir, args.path) === screen
        ? { path: './ui/watch-screen.js', external: true }
        : undefined,
    );
  },
};

/**
 * The supervisor's script leaves out what only a command run on the main thread, or `watch`,
 * loads: the command table (`program.ts`), each command's module (`commands/<name>.ts`; their
 * definitions stay, to parse a line ahead), and `watch`'s supervisors. An import of one is a
 * module that throws (the entry runs the whole script for those commands); `check`'s module,
 * whose renderer reports a check stopped by its project's code, is `whole-script-check.ts`, which
 * takes it from the whole script.
 */
const supervisorOnly = {
  name: 'cosi-supervisor-only',
  setup(context) {
    const cli = path.join(ROOT, 'src/cli');
    const left = new Set(
      ['program', 'supervised-watch', 'supervised-watch-screen', 'cli-worker-body'].map((name) =>
        path.join(cli, `${name}.js`),
      ),
    );
    context.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      const command = path.relative(path.join(cli, 'commands'), target);
      if (target === path.join(cli, 'commands/check.js')) {
        return { path: path.join(cli, 'whole-script-check.ts') };
      }
      const isCommand =
        !command.startsWith('..') &&
        !command.includes(path.sep) &&
        !/-definition\.js$/.test(command);
      if (isCommand || left.has(target)) {
        return { path: path.relative(ROOT, target), namespace: 'cosi-left-out' };
      }
      return undefined;
    });
    context.onLoad({ filter: /.*/, namespace: 'cosi-left-out' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`cosi's supervisor script leaves out ${args.path}`)});`,
      loader: 'js',
    }));
  },
};

async function main() {
  await rm(path.join(ROOT, 'dist'), { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--emitDeclarationOnly',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  const commands = (await readdir(path.join(ROOT, 'src/cli/commands')))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `cli/commands/${name}`);
  await build({
    absWorkingDir: ROOT,
    entryPoints: [...ENTRIES, ...commands].map((entry) => `src/${entry}`),
    outdir: 'dist',
    outbase: 'src',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    define: VERSION_DEFINE,
    plugins: [fdirPicomatch, commanderSpawn, externals],
    // CommonJS packages compiled in call `require` for Node's own modules.
    banner: {
      js: "import { createRequire as __cosiCreateRequire } from 'node:module'; const require = __cosiCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const scriptHash = await buildCliScript(CLI_SCRIPT);
  const hashes = { script: scriptHash };
  const supervisorHash = await buildCliScript(SUPERVISOR_SCRIPT, [
    supervisorOnly,
    scriptHashes(hashes),
  ]);
  for (const runner of SCRIPT_RUNNERS) {
    await buildScriptRunner(runner, { ...hashes, supervisor: supervisorHash });
  }
}

/**
 * `dist/cli/cli-script.cjs` (or the supervisor's, `entry`): the CLI's code as one CommonJS
 * script, the modules it imports lazily inlined. `import.meta.url` is the script's URL, and an
 * `import()` of a package left out of the bundle calls the `__cosiImport` its runner gives (a
 * script run by `vm` cannot `import()` without `--experimental-vm-modules` on Node 20). Returns
 * the script's hash.
 */
async function buildCliScript(entry, plugins = []) {
  const outfile = path.join(
    ROOT,
    'dist',
    entry === SUPERVISOR_SCRIPT ? 'cli/cli-supervisor.cjs' : entry.replace(/\.ts$/, '.cjs'),
  );
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [`src/${entry}`],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
    plugins: [...plugins, fdirPicomatch, commanderSpawn, watchScreenOutside, externals],
    define: { ...VERSION_DEFINE, 'import.meta.url': '__cosiImportMetaUrl' },
    // Strict, as the ES modules it is built from are: a directive only counts first in the
    // script, before the banner's line (esbuild's own "use strict" comes after it). In sloppy
    // mode a method called on a string gets a String object as `this`: CEL's string functions
    // then failed on it ("Not a CEL value").
    banner: {
      js: "'use strict'; var __cosiImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    logLevel: 'warning',
  });
  const code = countingModulesRun(
    asciiOnly(withImportsCalling(result.outputFiles[0].text, '__cosiImport')),
  );
  for (const name of AWAITING_PACKAGES) {
    if (code.includes(`require("${name}")`)) {
      throw new Error(`the CLI's script requires ${name}, which require() cannot load`);
    }
  }
  await writeFile(outfile, code);
  return createHash('sha256').update(code).digest('hex');
}

/** The first line of esbuild's helper that initializes a lazily loaded module. */
const ESM_HELPER = 'var __esm = (fn, res, err) => function __init() {\n';

/**
 * `code` with each module it initializes counted in `__cosiModulesRun` (read by
 * `src/cli/modules-run.ts`): what a run covered, for its code cache. The build fails if esbuild's
 * helper changed.
 */
function countingModulesRun(code) {
  if (!code.includes(ESM_HELPER)) {
    throw new Error("esbuild's __esm helper is not the one the CLI's script counts modules in");
  }
  return code.replace(
    ESM_HELPER,
    `var __cosiModulesRun = 0;\n${ESM_HELPER}  if (fn) __cosiModulesRun++;\n`,
  );
}

/**
 * `src/cli/cli-script-hash.ts` with the scripts' hashes filled in: `script`, the whole CLI's,
 * and `supervisor`, the supervisor's, when known.
 */
function scriptHashes({ script, supervisor }) {
  return {
    name: 'cosi-cli-script-hash',
    setup(context) {
      context.onLoad({ filter: /[\\/]cli-script-hash\.ts$/ }, () => ({
        contents: [
          `export const CLI_SCRIPT_HASH = ${JSON.stringify(script)};`,
          `export const SUPERVISOR_SCRIPT_HASH = ${JSON.stringify(supervisor)};`,
        ].join('\n'),
        loader: 'ts',
      }));
    },
  };
}

/**
 * `dist/<runner>.cjs`: an entry that runs the CLI's scripts, given their hashes
 * (`src/cli/cli-script-hash.ts`, filled in here).
 */
async function buildScriptRunner(runner, hashes) {
  await buildStandaloneScript(runner, [scriptHashes(hashes)]);
}

/**
 * `dist/<entry>.cjs`: one CommonJS script of `src/<entry>` and what it imports; the build fails
 * if that is more than Node's modules and cosi's own (a package would be loaded at its start).
 */
async function buildStandaloneScript(entry, plugins = []) {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [`src/${entry}`],
    outfile: path.join(ROOT, 'dist', entry.replace(/\.ts$/, '.cjs')),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    plugins: [...plugins, externals],
    metafile: true,
    logLevel: 'warning',
  });
  const packages = Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .map((imported) => imported.path)
    .filter((imported) => !imported.startsWith('node:'));
  if (packages.length > 0) {
    throw new Error(`${entry} must import Node's modules alone, not ${packages.join(', ')}`);
  }
}

/**
 * `code` in ASCII alone: esbuild escapes what is not ASCII in strings, but leaves it in regular
 * expressions (a dependency's `/pok[eé]mon/`) and in raw templates, where an escape would change
 * the text. A script of ASCII is read as Latin-1 (a copy; see `cached-script.ts`), where UTF-8 is
 * a decoding of 2 MB into a string of twice the size, on every start. The build fails
 * on a raw template that is not ASCII: write the escape in its text instead.
 */
function asciiOnly(code) {
  const nonAscii = /[^\p{ASCII}]/u;
  if (!nonAscii.test(code)) return code;
  const ts = createRequire(import.meta.url)('typescript');
  const source = ts.createSourceFile(
    'worker.cjs',
    code,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.JS,
  );
  const visit = (node) => {
    if (ts.isTaggedTemplateExpression(node) && nonAscii.test(node.template.getText(source))) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      throw new Error(`the CLI's script has a raw template that is not ASCII (line ${line + 1})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // Each UTF-16 unit (a character past U+FFFF is two) as a `\\u` escape.
  return code.replace(
    /[\u0080-\uffff]/g,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `code` with each `import(...)` expression a call of `name(...)`, found by TypeScript's parser. */
function withImportsCalling(code, name) {
  const ts = createRequire(import.meta.url)('typescript');
  const source = ts.createSourceFile(
    'worker.cjs',
    code,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.JS,
  );
  const starts = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      starts.push(node.expression.getStart(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = '';
  let at = 0;
  for (const start of starts.sort((a, b) => a - b)) {
    out += code.slice(at, start) + name;
    at = start + 'import'.length;
  }
  return out + code.slice(at);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
