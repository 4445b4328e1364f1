/**
 * `cosi run`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';
import { addLoadingOptions } from '../loading-options.js';
import { addPathArguments, collectPaths } from '../options.js';

/** `cosi run`: its commander definition. */
export function defineRun(): Command {
  const command = new Command('run')
    .summary('serve the project: apply the manifests to a (shared) state and run the controllers')
    .description(
      'A long-lived runtime on the real clock. Applies the manifests to the state (again on ' +
        'every file change with --watch; a change of the config, a script it imports or the ' +
        "manifests' definitions restarts the controllers in the process, which loads them), " +
        'runs the project controllers and serves until SIGTERM ' +
        'or Ctrl-C (or SIGHUP), then stops cleanly: controllers stopped, the leader lease released. With ' +
        '--state etcd://HOST:PORT[/prefix] several processes share one state: they elect a ' +
        'leader on an etcd lease, and only the leader runs the controllers (those with ' +
        'needLeaderElection: false run in every process). When the leader dies, another process ' +
        'takes over within the lease TTL. A process that loses its leadership stops its ' +
        'controllers and exits with 4, for its supervisor to restart it. A second SIGTERM or ' +
        'Ctrl-C exits at once. Logs go to stderr, one line per event with its time and level ' +
        '(--log-format json: one JSON object per line). --metrics-addr serves Prometheus ' +
        'metrics at /metrics, --health-addr /healthz and /readyz. The controllers run in a ' +
        'worker thread: one that throws or calls process.exit is logged and retried; one that ' +
        'never yields (--timeout), runs out of heap or ends the thread is logged with its ' +
        'resource, and the run exits 1 for its supervisor to restart it.',
    );
  addPathArguments(command).option(
    '-f, --file <path>',
    'manifest file, directory or glob (repeatable, or comma-separated)',
    collectPaths,
  );
  addLoadingOptions(command)
    .option('--state <url>', 'the state: memory, or etcd://HOST:PORT[/prefix]', 'memory')
    .option('--watch', 'apply the manifests again when a file changes')
    .option(
      '--lease-ttl <duration>',
      'leader lease TTL, whole seconds, at most 24h: how long a dead leader blocks the fail-over (etcd only)',
      '5s',
    )
    .option(
      '--request-timeout <duration>',
      'how long a request to etcd may wait for its answer, at most 24h; a SIGTERM is obeyed within it too (etcd only)',
      '5s',
    )
    .option(
      '--connect-timeout <duration>',
      'how long to wait for etcd to answer at start, at most 24h (a refused connection is tried again until then); an etcd not there by then is an error, exit 2 (etcd only)',
      '5s',
    )
    .option(
      '--timeout <duration>',
      "how long the project's code may run without an end: a controller whose reconcile does not yield for it is stopped and the run exits 1; one still awaiting after it is logged (at most 60s)",
      '60s',
    )
    .option('--log-format <format>', 'text (a line per event) or json (an object per line)', 'text')
    .option(
      '--metrics-addr <address>',
      'serve Prometheus metrics at /metrics on HOST:PORT or :PORT (0: off, the default)',
    )
    .option(
      '--health-addr <address>',
      'serve /healthz and /readyz on HOST:PORT or :PORT (0: off, the default)',
    )
    .option('--no-color', 'never color the output')
    .option(
      '-v, --verbose',
      "log the controllers' info and debug records too (warnings and errors always)",
    )
    .addHelpText(
      'after',
      `
Examples:
  cosi run -f manifests/
  cosi run -f manifests/ --state etcd://127.0.0.1:2379/prod --watch
  cosi run -f manifests/ --state etcd://127.0.0.1:2379/prod --lease-ttl 10s
  cosi run -f manifests/ --metrics-addr :8080 --health-addr :8081 --log-format json

Exit codes: 0 after SIGTERM, Ctrl-C or SIGHUP; 1 invalid manifests, the state failed at start, or a
controller stopped the worker thread (a loop past --timeout, out of heap, an exit); 2 usage
or config error, etcd unreachable within --connect-timeout, a prefix holding another project's
state, an address in use; 4 leadership lost (restart it); 130 / 143 / 129 a second Ctrl-C /
SIGTERM / SIGHUP; 70 cosi itself failed (a bug, out of memory).`,
    );
  // The etcd flags hold no value unless given (their defaults are `run`'s own, shown in the
  // help): `run` says that those given with a state in memory are ignored.
  command.hook('preAction', (self) => {
    for (const key of ['leaseTtl', 'requestTimeout', 'connectTimeout']) {
      if (self.getOptionValueSource(key) === 'default') self.setOptionValue(key, undefined);
    }
  });
  return command;
}
