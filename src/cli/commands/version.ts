import { Command } from 'commander';
import type { CliCommand, CommandResult } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { outputOption, parseFormat } from '../options.js';
import { VERSION } from '../version.js';

const FORMATS = ['text', 'json'] as const;

interface VersionFlags {
  output: string;
}

/** `cosi version`: the version of cosi (its CLI and engine are one package) and of Node.js. */
export const versionCommand: CliCommand<[VersionFlags]> = { define, run: version };

function define(): Command {
  return new Command('version')
    .summary('print the version of cosi and of the Node.js it runs on')
    .description('Prints the version of cosi (the CLI and the engine it runs) and of Node.js.')
    .addOption(outputOption(FORMATS, 'text'));
}

export function version(io: CliIo, flags: VersionFlags): Promise<CommandResult> {
  const format = parseFormat(flags.output, FORMATS);
  const facts = {
    cosi: VERSION,
    engine: VERSION,
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
  };
  io.stdout.write(
    format === 'json'
      ? `${JSON.stringify(facts, null, 2)}\n`
      : `cosi ${facts.cosi} (engine ${facts.engine}, node ${facts.node}, ${facts.platform})\n`,
  );
  return Promise.resolve({ exitCode: EXIT.ok });
}
