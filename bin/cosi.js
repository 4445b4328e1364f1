#!/usr/bin/env node
// React (under the watch screen) runs its production build unless told otherwise: its development
// build checks every render and is several times slower. Set before the CLI (and React) loads.
process.env.NODE_ENV ??= 'production';
const { main } = await import('../dist/cli/main.js');

const code = await main(process.argv.slice(2));
process.exitCode = code;
// The command is over. A timer or socket a project's code left open must not keep the process
// alive: after a grace period for the output to drain, it ends with the command's exit code.
// (Unref'd: a process with nothing left open ends at once, as before.)
setTimeout(() => process.exit(code), 2000).unref();
