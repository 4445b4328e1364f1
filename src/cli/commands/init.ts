import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dependsOnTypescript, installCommand, shellWord } from '../../app/init/install-command.js';
import { installedTarball } from '../../app/init/installed-tarball.js';
import { keptTsconfigProblem } from '../../app/init/kept-tsconfig.js';
import { starterFilesFor } from '../../app/init/repository-ci-job.js';
import {
  StarterFilesExistError,
  writeStarterProject,
} from '../../app/init/write-starter-project.js';
import type { CliCommand, CommandResult } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { packageFile } from '../../loaders/package-location.js';
import { defineInit } from './init-definition.js';

/** What `cosi init` wrote: the project directory as given, and its files. */
export interface InitResult {
  readonly dir: string;
  readonly files: readonly string[];
  /** What the user should know of what init kept or where it wrote (stderr, as `cosi: warning:`). */
  readonly warnings?: readonly string[];
}

/** `cosi init [dir]`: writes the starter project. */
export const initCommand: CliCommand<[string], InitResult> = {
  define: defineInit,
  run: init,
  render: (io, { result }) => {
    const packageJson = readIfThere(path.resolve(io.cwd, result.dir, 'package.json'));
    const steps = [
      ...(result.dir === '.' ? [] : [`cd ${shellWord(result.dir)}`]),
      // This cosi (cosi is not on the npm registry) and TypeScript, as the project's own.
      ...[
        installCommand(path.resolve(io.cwd, result.dir), cosiRoot(), {
          hasPackageJson: packageJson !== undefined,
          hasTypescript: packageJson !== undefined && dependsOnTypescript(packageJson),
          ...tarballOf(io, cosiRoot()),
        }),
      ].filter((line) => line !== undefined),
      'npx cosi check --expect expected --typecheck   # what the CI job runs',
      'npx cosi get appconfig                         # what the controller made',
      "node --test                                    # the controller's tests (test/)",
    ];
    // A file above the project is the CI job at the repository's root: said why it is there.
    const wrote = (file: string) =>
      `wrote ${path.join(result.dir, file)}${file.startsWith('../') ? ' (at the repository root, where GitHub reads workflows; its steps run in the project)' : ''}\n`;
    io.stdout.write(result.files.map(wrote).join(''));
    for (const warning of result.warnings ?? []) io.stderr.write(`cosi: warning: ${warning}\n`);
    io.stdout.write(['', 'Next:', ...steps.map((step) => `  ${step}`), ''].join('\n'));
  },
};

/** The package root of the running cosi. */
const cosiRoot = (): string => fileURLToPath(packageFile('.'));

/**
 * The tarball this cosi came as: the one `npx --package ./cosi-0.1.0.tgz cosi init` names in the
 * command's environment (`npm_config_package`, relative to where npx ran), else the one the
 * package whose `node_modules` holds it records (`npx ./cosi-0.1.0.tgz init`, whose cache
 * package records it, or `npm install ../cosi-0.1.0.tgz` in another package): a `.tgz` that is there.
 */
function tarballOf(io: CliIo, root: string): { tarball?: string } {
  const given = io.env.npm_config_package;
  if (given !== undefined && !given.includes('\n') && /\.(?:tgz|tar\.gz)$/.test(given)) {
    const file = path.resolve(io.cwd, given);
    if (existsSync(file)) return { tarball: file };
  }
  const recorded = installedTarball(root);
  return recorded === undefined ? {} : { tarball: recorded };
}

async function init(io: CliIo, dir: string): Promise<CommandResult<InitResult>> {
  try {
    const target = path.resolve(io.cwd, dir);
    const files = await writeStarterProject(target, await starterFilesFor(target));
    const warnings: string[] = [];
    if (!files.includes('tsconfig.json')) {
      const kept = await keptTsconfigProblem(
        path.join(target, 'tsconfig.json'),
        path.join(dir, 'tsconfig.json'),
      );
      if (kept !== undefined) warnings.push(kept);
    }
    return {
      exitCode: EXIT.ok,
      result: { dir, files, ...(warnings.length > 0 ? { warnings } : {}) },
    };
  } catch (error) {
    if (error instanceof StarterFilesExistError) {
      throw new CliError(`init: ${error.message}`);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string') {
      throw new CliError(`init: cannot write the project: ${(error as Error).message}`);
    }
    throw error;
  }
}

/** A file's text, or `undefined` when it cannot be read (it is not there). */
function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
