/**
 * `cosi explain`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { DEFAULT_LINEAGE_DEPTH, MAX_LINEAGE_DEPTH } from '../../app/explain/lineage-depth.js';
import { Command } from 'commander';
import { addProjectOptions, outputOption } from '../options.js';
import { addTraceOption } from '../trace-file.js';
import { EXPLAIN_FORMATS } from '../render/explain/explain-formats.js';

/** `cosi explain`: its commander definition. */
export function defineExplain(): Command {
  const command = new Command('explain')
    .summary(
      "why a resource is as it is (or, with --why-not, why it is not there); a type's fields",
    )
    .description(
      'Runs the project like `cosi apply`, recording every reconcile (what triggered it, what ' +
        'it read and wrote at which versions, how it ended), then explains one resource: its ' +
        'status (a kro state, its conditions as kubectl describe lists them) and the ' +
        'reconciles of it that failed, with the last error; who wrote it and from which inputs at which versions, back to the manifests with their ' +
        'file:line:col, as a tree whose edges say why they exist (strong, weak, primary or ' +
        'mapped input, owner reference, finalizer); the history of its versions; for each ' +
        'field the write that set it last; and, when the run did not converge and it kept ' +
        'changing, the cycle of writes. With --why-not, for a resource that does not exist: ' +
        'each controller that could write it and what stopped it. With no id, TYPE.field.path ' +
        "explains a field as kubectl explain does, from the types' schemas (nothing is run): " +
        'its description, type, whether it is required, its enum, default and CEL rules, and ' +
        'its fields; --recursive prints the tree of fields below it.',
    )
    .argument(
      '<type>',
      'resource type or alias (a Kubernetes kind too), TYPE/ID, or TYPE.field.path',
    )
    .argument('[id]', 'resource id');
  addTraceOption(addProjectOptions(command))
    .addOption(
      outputOption(
        [
          'tree (kubectl: plaintext)',
          ...EXPLAIN_FORMATS.filter((f) => f !== 'dot' && f !== 'tree'),
          'dot (a resource)',
        ],
        'tree',
      ),
    )
    .option(
      '-n, --namespace <namespace>',
      "namespace (default: the type's default namespace, or else the one namespace that has the id)",
    )
    .option(
      '--depth <n>',
      `hops of the lineage tree (default: ${DEFAULT_LINEAGE_DEPTH}, at most ${MAX_LINEAGE_DEPTH})`,
    )
    .option('--reverse', 'also show what the resource feeds')
    .option('--why-not', 'for a resource that does not exist: what stopped its writers')
    .option('-R, --recursive', 'for a field: the tree of every field below it, with their types')
    .option(
      '--max-depth <n>',
      'for a field, with --recursive: the levels of fields below it to print (default: 0, every level)',
    )
    .option(
      '--api-version <group/version>',
      "for a field: the kind in this API group and version (autoscaling/v1, v1 for the core group), not its preferred one, as kubectl's --api-version",
    )
    .option(
      '--field <path>',
      "for a resource: only this field and those below it (data.size, metadata.labels.app or /spec/data/size): who set it, and for an RGD's or a transform's output the template line (file:line:col) and expressions it was rendered from",
    )
    .addHelpText(
      'after',
      `
Examples:
  cosi explain networkconfig web-1 -f manifests/
  cosi explain vm/web-1 -f manifests/ --reverse
  cosi explain networkconfig ghost -f manifests/ --why-not
  cosi explain networkconfig web-1 -f manifests/ -o dot | dot -Tsvg > lineage.svg
  cosi explain deployment/shop --field spec.template.spec.containers -f manifests/
  cosi explain vm.spec.cpus -f manifests/
  cosi explain certificate.spec --recursive -f manifests/
  cosi explain hpa.spec --api-version autoscaling/v1

Exit codes: 0 explained, 1 invalid manifests, failing controllers (the explanation is
printed) or no such resource (without --why-not), 2 usage or config error, an unknown type or
field, 3 did not converge (the explanation is printed, with the cycle of writes), 70 cosi
itself failed (a bug, out of memory).`,
    );
  return command;
}
