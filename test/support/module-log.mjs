// Preloaded (`node --import`) by tests that check which modules a process loads: every module
// URL it loads is appended, a line each, to the file named by COSI_MODULE_LOG: ES modules from
// the loader hooks, CommonJS modules (and ES modules loaded by `require`) from `require` itself,
// which the hooks do not see on Node 20. A worker thread preloads this too.
import { appendFileSync } from 'node:fs';
import Module, { isBuiltin, register } from 'node:module';
import process from 'node:process';
import { pathToFileURL, URL } from 'node:url';

register(new URL('./module-log-hooks.mjs', import.meta.url));

const load = Module._load;
Module._load = function logged(request, parent, isMain) {
  const loaded = load.call(this, request, parent, isMain);
  if (!isBuiltin(request)) {
    const file = Module._resolveFilename(request, parent, isMain);
    appendFileSync(process.env.COSI_MODULE_LOG, `${pathToFileURL(file).href}\n`);
  }
  return loaded;
};
