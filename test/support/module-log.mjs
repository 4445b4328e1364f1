// Preloaded (`node --import`) by tests that check which modules a process loads: every module
// URL it loads is appended, a line each, to the file named by COSI_MODULE_LOG: ES modules from
// the loader hooks, CommonJS modules (and ES modules and built-in modules loaded by `require`,
// the latter as `node:name`) from `require` itself,
// which the hooks do not see on Node 20. A worker thread preloads this too.
import { appendFileSync } from 'node:fs';
import Module, { isBuiltin, register } from 'node:module';
import process from 'node:process';
import { pathToFileURL, URL } from 'node:url';

register(new URL('./module-log-hooks.mjs', import.meta.url));

const load = Module._load;
Module._load = function logged(request, parent, isMain) {
  const loaded = load.call(this, request, parent, isMain);
  // A built-in module by its `node:` URL, as the hooks see an imported one.
  const url = isBuiltin(request)
    ? `node:${request.replace(/^node:/, '')}`
    : pathToFileURL(Module._resolveFilename(request, parent, isMain)).href;
  appendFileSync(process.env.COSI_MODULE_LOG, `${url}\n`);
  return loaded;
};
