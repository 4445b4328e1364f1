import { MissingManifestsError } from '../app/config-manifests.js';
import { FileWriteError } from '../app/file-write-error.js';
import { ResourceQueryError } from '../app/resource-query.js';
import { ConfigError } from '../loaders/config-error.js';
import { UnknownKindFilterError } from '../loaders/kind-filter.js';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { toWriteError } from './write-error.js';

/**
 * The exit code of an error a command threw, its message said on stderr: a `CliError` its own
 * code, a config that does not load or register, a type a query does not know, a `--reject-kinds`
 * kind nothing defines and a file that cannot be written are usage errors; anything else is a bug and prints its stack (exit 70). Commander's
 * own errors are handled before (`runCli`), without loading this module.
 */
export function exitCodeOfError(thrown: unknown, io: Pick<CliIo, 'stderr'>): ExitCode {
  const error = thrown instanceof FileWriteError ? toWriteError(thrown.cause, thrown.file) : thrown;
  if (error instanceof CliError) {
    io.stderr.write(`cosi: ${error.message}\n`);
    return error.exitCode;
  }
  if (
    error instanceof ConfigError ||
    error instanceof ResourceQueryError ||
    error instanceof MissingManifestsError ||
    error instanceof UnknownKindFilterError
  ) {
    io.stderr.write(`cosi: ${error.message}\n`);
    return EXIT.usage;
  }
  io.stderr.write(
    `cosi: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT.internal;
}
