/**
 * `cosi check`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';
import { addPathArguments, addProjectOptions, collectList, outputOption } from '../options.js';
import { addTraceOption } from '../trace-file.js';
import { addReportOption } from '../report-option.js';
import { CHECK_REPORT_FORMATS as CHECK_FORMATS } from '../render/check/check-formats.js';

/** The output formats of `cosi check`. */
export { CHECK_FORMATS };

/** `cosi check`: its commander definition. */
export function defineCheck(): Command {
  const command = new Command('check')
    .summary('validate manifests, run the controllers and report, for CI')
    .description(
      'Validates every manifest, runs the controllers to convergence and reports every finding: ' +
        'invalid manifests, failing controllers, non-convergence and, with --expect, differences ' +
        'from a golden tree of expected resources. Ends with "N passed, N failed".',
    );
  addReportOption(addTraceOption(addProjectOptions(addPathArguments(command))))
    .addOption(outputOption(CHECK_FORMATS, 'text'))
    .option(
      '--strict',
      "fail on warnings too: fields a cosi type does not declare (a Kubernetes kind's unknown fields always fail), types no controller reads, YAML 1.1 booleans",
    )
    .option(
      '--allow-warning <codes>',
      'with --strict: warnings of these codes are still shown but do not fail (large-definition, unread-type; comma-separated, repeatable)',
      collectList,
    )
    .option(
      '--each',
      'check each path given as a world of its own (separate applications or environments: the same names in two of them are no duplicates), one report',
    )
    .option(
      '--expect <dir>',
      "compare the converged state with the expected manifests in <dir> (a sensitive type's values as fingerprints keyed with $COSI_GOLDEN_KEY)",
    )
    .option(
      '--update',
      'with --expect: write the converged state to <dir> instead of comparing (only a run that converged)',
    )
    .option(
      '--previous <ref-or-dir>',
      'check CEL transition rules (oldSelf) against this previous revision: a directory, or a git revision such as origin/main',
    )
    .option(
      '--skip-kinds <kinds>',
      'neither check nor load documents of these kinds: Deployment, apps/v1/Deployment, a resource name (deployments, deploy) or a cosi type (comma-separated, repeatable; kubeconform -skip)',
      collectList,
    )
    .option(
      '--reject-kinds <kinds>',
      'report documents of these kinds as errors, named as for --skip-kinds (comma-separated, repeatable; kubeconform -reject)',
      collectList,
    )
    .option(
      '--ignore-unknown-kinds',
      'skip Kubernetes documents of kinds no CRD, config or built-in kind defines, instead of failing (kubeconform -ignore-missing-schemas); a kind Kubernetes rules out (apps/v1 Deploymnet) still fails',
    )
    .option(
      '--typecheck',
      "type-check cosi.config.ts (and what it imports) with the project's own TypeScript (npm install --save-dev typescript)",
    )
    .option(
      '--keep-volatile',
      'with --expect: record and compare versions and timestamps too (left out by default)',
    )
    .addHelpText(
      'after',
      `
Examples:
  cosi check -f manifests/
  cosi check -f manifests/ --strict -o github
  cosi check crds/ --strict --allow-warning large-definition   # every warning fails but this one
  cosi check -f manifests/ --expect expected/ --update   # record the golden tree
  cosi check -f manifests/ --expect expected/ -o junit > report.xml
  cosi check -f manifests/ -o github --report report.html   # and a page to open from CI
  cosi check -f manifests/ --previous origin/main   # transition rules, as an update would
  cosi check k8s/ --kubernetes-version 1.30 --ignore-unknown-kinds -o junit   # as kubeconform -summary
  cosi check k8s/ --schema-location 'CRDs-catalog/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'
  cosi check k8s/ --schema-cache ~/.cache/schemas \\
    --schema-location 'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'
  cosi check --each clusters/*/   # each environment a world of its own, one report

Exit codes: 0 clean, 1 findings, 2 usage or config error, 3 did not converge,
70 cosi itself failed (a bug, out of memory), 130 / 143 stopped by Ctrl-C / SIGTERM (no report
is written: an empty report.xml, never a passing one).`,
    );
  return command;
}
