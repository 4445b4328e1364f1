/**
 * `cosi diff`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';
import { addLoadingOptions } from '../loading-options.js';
import { addPathArguments, collectPaths, outputOption, quietOption } from '../options.js';
import { requestTimeoutOption } from '../state-option.js';

/** `cosi diff -o` formats. */
export const DIFF_FORMATS = ['text', 'json'] as const;

/** `cosi diff`: its commander definition. */
export function defineDiff(): Command {
  const command = new Command('diff')
    .summary('show what applying the manifests would change in a running system (as kubectl diff)')
    .description(
      'Reads the manifests (and the config beside them) as `cosi run` does, reads the state ' +
        'of the running system once, and shows what `cosi run -f` on these manifests would ' +
        'change there: resources created, changed (their spec, labels or annotations differ) ' +
        'and removed (a resource the last `cosi run` applied from its manifests, which these ' +
        'no longer have: a run prunes it as it starts). Definitions are compared as `cosi run` stores them (created or changed, never ' +
        'removed). Controllers\u2019 outputs are never shown: applying manifests does not write ' +
        'them; nor are the labels, annotations and Kubernetes status that a controller added ' +
        'to a manifest\u2019s resource and its manifest never set (an apply keeps them, as ' +
        '`kubectl apply` does). Each change is a unified diff of the YAML between live/ and desired/, as ' +
        '`kubectl diff` prints it (colored on a terminal); -o json lists {type, id, namespace, ' +
        'action, diff}. COSI_EXTERNAL_DIFF names another diff program (as KUBECTL_EXTERNAL_DIFF: ' +
        '`COSI_EXTERNAL_DIFF="diff -r"`), run on two directories, live and desired. Nothing is ' +
        'written to the state.',
    );
  addPathArguments(command).option(
    '-f, --file <path>',
    'manifest file, directory or glob; - for the standard input (repeatable, or comma-separated)',
    collectPaths,
  );
  addLoadingOptions(command)
    // Required, but said by `diff` itself: commander says a missing mandatory option before an
    // unknown one, and `diff -q` would ask for --state before saying -q is no flag of diff.
    .option(
      '--state <url>',
      'the running system, required: etcd://HOST:PORT[/prefix], as cosi run serves it',
    )
    .addOption(outputOption(DIFF_FORMATS, 'text'))
    .addOption(requestTimeoutOption())
    .option(
      '--connect-timeout <duration>',
      'how long to wait for etcd to answer at all, at most 24h (a refused connection is tried again until then); an etcd not there by then is an error (exit 2)',
      '5s',
    )
    .option('--no-color', 'never color the output')
    .addOption(quietOption())
    .addHelpText(
      'after',
      `
Examples:
  cosi diff -f manifests/ --state etcd://127.0.0.1:2379/prod
  cosi diff -f manifests/ --state etcd://127.0.0.1:2379/prod -o json
  cosi diff -f manifests/ --state etcd://127.0.0.1:2379/prod && echo "nothing to apply"

Exit codes (as kubectl diff): 0 no change, 1 changes, 2 error (invalid manifests, an
unreachable etcd, another project's state, usage), 70 cosi itself failed (a bug, out of
memory).`,
    );
  return command;
}
