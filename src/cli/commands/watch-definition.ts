/**
 * `cosi watch`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';
import { addPathArguments, addProjectOptions, collectTypes, outputOption } from '../options.js';
import { addTraceOption } from '../trace-file.js';

/** `cosi watch`: its commander definition. */
export function defineWatch(): Command {
  const command = new Command('watch')
    .summary('apply, then re-reconcile on every file change, with a live view')
    .description(
      'Starts like cosi apply, then keeps the controllers running. When a manifest changes, is ' +
        'added or is removed (changes within 100 ms are batched), only the changed files are read ' +
        'again and only the difference is applied to the running state; the controllers converge ' +
        'and the view is redrawn. Invalid manifests after an edit are shown and nothing of them ' +
        'is applied: the last good state keeps running. A change of the config, or of a script ' +
        'next to it, or of the set of types restarts the controllers on a fresh state. Each ' +
        'round converges on a simulated clock, moved to wall time between rounds: backoffs and ' +
        'requeues cost no wall time, and a round shows where the controllers settle. On a ' +
        'terminal it is a full-screen view: a header with the round and its verdict, the ' +
        'findings, the resources by type with a change marker per row (+ created, ~ updated, ' +
        '- destroyed this round), the controllers, and keys to filter, open a resource (its ' +
        'lineage, last writes, diff and YAML), list every finding, pause and re-run (? lists ' +
        'them). Off a terminal (or on a dumb one, TERM=dumb), ' +
        'or with --plain, it prints a line stream: one header line per round, then one line per ' +
        'changed resource and the findings; -o json prints one JSON object per round (NDJSON). ' +
        'q or Ctrl-C quits.',
    );
  addTraceOption(addProjectOptions(addPathArguments(command)))
    .option('-n, --namespace <namespace>', 'show only this namespace')
    .option(
      '-t, --type <type>',
      'show only this type, any alias (repeatable, or comma-separated)',
      collectTypes,
    )
    .addOption(outputOption(['text', 'json'], 'text'))
    .option('--plain', 'print a line stream even on a terminal')
    .addHelpText(
      'after',
      `
Examples:
  cosi watch -f manifests/
  cosi watch -f manifests/ -t vm
  cosi watch -f manifests/ --config ./cosi.config.ts > rounds.log   (a line stream)
  cosi watch -f manifests/ -o json | jq .counts                      (one object per round)

Exit codes: 0 after q or Ctrl-C (or SIGTERM, off the screen), 2 usage or config error at start,
70 cosi itself failed (a bug, out of memory).`,
    );
  return command;
}
