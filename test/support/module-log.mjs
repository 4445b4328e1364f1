// Preloaded (`node --import`) by tests that check which modules a process loads: every module
// URL it loads is appended, a line each, to the file named by COSI_MODULE_LOG: ES modules from
// the loader hooks, CommonJS modules (and ES modules and built-in modules loaded by `require`,
// the latter as `node:name`) from `require` itself and `process.getBuiltinModule`,
// which the hooks do not see on Node 20. A worker thread preloads this too.
//
// cosi's own modules are one script (`dist/cli/cli-script.cjs`, or the main thread's supervisor
// script `dist/cli/cli-supervisor.cjs`, run by `vm.Script`, logged as `cosi-script-file:...`), where
// esbuild wraps each module that loads lazily in an `__esm` initializer named by its source
// path: the script is given an `__esm` that logs `cosi-script:main:src/...` (or `:worker:`, by
// the thread) at each module's first initialization. The runner must give it a cache directory of its own (TMPDIR): a code cache
// of this changed script is not one for the real script.
import { appendFileSync } from 'node:fs';
import Module, { isBuiltin, register } from 'node:module';
import process from 'node:process';
import { pathToFileURL, URL } from 'node:url';
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';

register(new URL('./module-log-hooks.mjs', import.meta.url));

const logLine = (line) => appendFileSync(process.env.COSI_MODULE_LOG, `${line}\n`);

const load = Module._load;
Module._load = function logged(request, parent, isMain) {
  const loaded = load.call(this, request, parent, isMain);
  // A built-in module by its `node:` URL, as the hooks see an imported one.
  const url = isBuiltin(request)
    ? `node:${request.replace(/^node:/, '')}`
    : pathToFileURL(Module._resolveFilename(request, parent, isMain)).href;
  logLine(url);
  return loaded;
};

// `process.getBuiltinModule` (Node's modules loaded on first need) is logged as `require` is.
const getBuiltinModule = process.getBuiltinModule;
process.getBuiltinModule = function logged(id) {
  const loaded = getBuiltinModule.call(this, id);
  if (loaded !== undefined) logLine(`node:${id.replace(/^node:/, '')}`);
  return loaded;
};

const ESM_HELPER = 'var __esm = (fn, res, err) => function __init() {\n';
globalThis.__cosiLogModule = (name) =>
  logLine(`cosi-script:${isMainThread ? 'main' : 'worker'}:${name}`);
const Script = vm.Script;
vm.Script = class LoggedScript extends Script {
  constructor(source, options) {
    const file = /(cli-script|cli-supervisor)\.cjs$/.exec(options?.filename ?? '')?.[0];
    if (file === undefined) {
      super(source, options);
      return;
    }
    // Which of the CLI's scripts the thread runs (the whole one, or the supervisor's).
    logLine(`cosi-script-file:${isMainThread ? 'main' : 'worker'}:${file}`);
    if (!source.includes(ESM_HELPER)) {
      throw new Error("module-log.mjs: esbuild's __esm helper is not the one it instruments");
    }
    const logging = `${ESM_HELPER}  if (fn) __cosiLogModule(__getOwnPropNames(fn)[0]);\n`;
    super(source.replace(ESM_HELPER, logging), options);
  }
};
