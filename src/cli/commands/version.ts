import { Command } from 'commander';
import type { CliCommand, CommandResult } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { outputOption, parseFormat } from '../options.js';
import { VERSION } from '../version.js';
import { renderVersion, type VersionFacts } from '../render/version.js';

const FORMATS = ['text', 'json'] as const;

interface VersionFlags {
  output: string;
}

/** `cosi version`: the version of cosi (its CLI and engine are one package) and of Node.js. */
export const versionCommand: CliCommand<[VersionFlags], VersionFacts> = {
  define,
  run: version,
  render: (io, { result }, flags) => {
    io.stdout.write(renderVersion(result, parseFormat(flags.output, FORMATS)));
  },
};

function define(): Command {
  return new Command('version')
    .summary('print the version of cosi and of the Node.js it runs on')
    .description('Prints the version of cosi (the CLI and the engine it runs) and of Node.js.')
    .addOption(outputOption(FORMATS, 'text'))
    .addHelpText(
      'after',
      `
Exit codes: 0 printed, 2 usage error (an unknown output format), 70 cosi itself failed (a bug).`,
    );
}

export function version(_io: CliIo, flags: VersionFlags): Promise<CommandResult<VersionFacts>> {
  parseFormat(flags.output, FORMATS);
  const facts = {
    cosi: VERSION,
    engine: VERSION,
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
  };
  return Promise.resolve({ exitCode: EXIT.ok, result: facts });
}
