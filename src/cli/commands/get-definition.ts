/**
 * `cosi get`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';
import {
  addProjectOptions,
  addResourceTableOptions,
  outputOption,
  RESOURCE_FORMATS,
} from '../options.js';
import { addTraceOption } from '../trace-file.js';
import { requestTimeoutOption, stateOption } from '../state-option.js';

/** The output formats of `cosi get`. */
export const GET_FORMATS = RESOURCE_FORMATS;

/** `cosi get`: its commander definition. */
export function defineGet(): Command {
  const command = new Command('get')
    .summary('run the controllers on manifests and print one type or one resource')
    .description(
      'Runs the project like `cosi apply`, then prints the resources of one type (any alias, ' +
        'case-insensitive), of several (`vm,host`), or one resource by id (`vm web-1` or ' +
        '`vm/web-1`), or several (`vm web-1 web-2`, `vm/web-1 host/node-a`).',
    )
    .argument(
      '<type>',
      'resource type or alias (e.g. vm, VMs.example.org, rd), vm,host, or vm/web-1',
    )
    .argument(
      '[ids...]',
      'resource id, or several, or more TYPE/ID (as kubectl takes them, and -o name prints them)',
    );
  addResourceTableOptions(
    addTraceOption(addProjectOptions(command))
      .addOption(outputOption(GET_FORMATS, 'table'))
      .option('-n, --namespace <namespace>', 'namespace (default: all)')
      .option(
        '-A, --all-namespaces',
        'every namespace, whatever -n says (the default; as kubectl)',
      ),
  )
    .option(
      '-l, --selector <selector>',
      'only what matches this label selector (a=b,c!=d,e in (x,y))',
    )
    .option(
      '--field-selector <selector>',
      'only what matches this field selector, as kubectl: metadata.name=web, metadata.namespace!=shop, or any field of the -o json document (type=kubernetes.io/tls); comma-separated, all must hold',
    )
    .option(
      '-w, --watch',
      'after the resources, print each change until interrupted, as kubectl get -w: with --state what the running system writes, without it what each re-run of the project on a file change (as cosi watch) changed',
    )
    .option(
      '--output-watch-events',
      'with -w: each row starts with ADDED, MODIFIED or DELETED (-o json and yaml print {type, object})',
    )
    .addOption(stateOption())
    .addOption(requestTimeoutOption())
    .addHelpText(
      'after',
      `
Examples:
  cosi get vms -f manifests/
  cosi get networkconfig web-1 -f manifests/ -o yaml
  cosi get vm/web-1 -f manifests/
  cosi get vm,host -f manifests/
  cosi get vm web-1 -f manifests/ -o jsonpath='{.spec.cpus}'
  cosi get vm -f manifests/ --sort-by .spec.cpus --no-headers
  cosi get rd -f manifests/
  cosi get vms --state etcd://127.0.0.1:2379/prod   (what a running cosi run holds)
  cosi get vms --state etcd://127.0.0.1:2379/prod -w   (and every change it writes)
  cosi get vm -f manifests/ -w --output-watch-events   (re-run on every file change)

Exit codes: 0 ok (with -w: after Ctrl-C or SIGTERM), 1 invalid manifests, failing controllers
or no such resource, 2 usage or config error, a --state that cannot be reached or read, 3 did
not converge, 70 cosi itself failed (a bug, out of memory).`,
    );
  return command;
}
