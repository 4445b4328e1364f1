#!/usr/bin/env node
// A CommonJS script (see `package.json` here): a command that needs no ES module never sets up
// Node's ES module loader, some milliseconds of every start (see `src/cli/cli-entry.ts`).
'use strict';
// React (under the watch screen) runs its production build unless told otherwise: its development
// build checks every render and is several times slower. Set before the CLI (and React) loads.
process.env.NODE_ENV ??= 'production';
const path = require('node:path');
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before the CLI loads: a version check (a script's, an installer's) costs a bare
  // node start. The same line commander prints for `cosi --version`.
  const manifest = require('../package.json');
  process.stdout.write(`${manifest.version}\n`);
} else {
  const { pathToFileURL } = require('node:url');
  const { runCosi } = require('../dist/cli/cli-entry.cjs');
  runCosi(args, pathToFileURL(path.join(__dirname, '..', path.sep))).then((code) => {
    process.exitCode = code;
    // The command is over. A timer or socket a project's code left open must not keep the
    // process alive: after a grace period for the output to drain, it ends with the command's
    // exit code. (Unref'd: a process with nothing left open ends at once, as before.)
    setTimeout(() => process.exit(code), 2000).unref();
  });
}
