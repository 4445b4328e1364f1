/**
 * `cosi init`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';

/** `cosi init`: its commander definition. */
export function defineInit(): Command {
  return new Command('init')
    .summary('write a starter project that passes cosi check')
    .description(
      'Writes a starter project into <dir> (default: the working directory): cosi.config.ts with ' +
        'a type and one controller and the manifests it names, a manifest (manifests/apps.yaml), the golden tree of ' +
        'the converged state (expected/), a test of the controller with cosi/testing that ' +
        "Node's own runner runs (test/apps.test.mjs, node --test) and a GitHub Actions job " +
        'that runs both (in a git ' +
        "repository whose root is above <dir>, the job goes to the root's .github/workflows, " +
        'where GitHub reads it, and runs in <dir>); and, unless <dir> has them, a .cosiignore ' +
        '(so that a walk of the project does not read expected/ as manifests) and a ' +
        'tsconfig.json for the config. It passes `cosi check --expect expected` and ' +
        '`node --test` as written. ' +
        'Existing files are never overwritten: if any of the others is there, or manifests/ ' +
        'or expected/ hold files of yours (the starter reads every file of both), nothing is ' +
        'written.',
    )
    .argument('[dir]', 'the project directory (made if missing)', '.')
    .addHelpText(
      'after',
      `
Examples:
  cosi init my-project && cd my-project && cosi check --expect expected

Exit codes: 0 written, 2 usage error, a file already there (nothing is written) or a file that
cannot be written, 70 cosi itself failed (a bug).`,
    );
}
