#!/usr/bin/env node
// React (under the watch screen) runs its production build unless told otherwise: its development
// build checks every render and is several times slower. Set before the CLI (and React) loads.
process.env.NODE_ENV ??= 'production';
const { main } = await import('../dist/cli/main.js');

process.exitCode = await main(process.argv.slice(2));
