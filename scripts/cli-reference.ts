/**
 * Writes docs/cli.md, the command-line reference, from the commands' own definitions: the
 * commander program `createCli` builds, every command's usage, description, arguments, options
 * with their defaults, and the examples and notes of its help. `npm run docs:cli` rewrites the
 * page; test/docs/cli-reference.test.ts fails when the committed page differs from what this
 * generates, so the page cannot drift from the flags.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, type Option } from 'commander';
import { addProjectOptions } from '../src/cli/options.js';
import { createCli } from '../src/cli/program.js';

/** Where the page lives. */
export const CLI_REFERENCE_FILE = fileURLToPath(new URL('../docs/cli.md', import.meta.url));

/** The page's text. */
export function cliReference(): string {
  const program = buildProgram();
  const commands = program.commands.filter((c) => !c.name().startsWith('__'));
  const out = [
    '# Command-line reference',
    '',
    "Generated from the commands' own definitions by `npm run docs:cli` (a test fails when this",
    'page and the code disagree). What the commands do is told in the topic pages:',
    '[running a project](commands.md), [CI](ci.md), [watch](watch.md), [etcd](etcd.md),',
    '[explain](explain.md).',
    '',
    '| command | what it does |',
    '| --- | --- |',
    ...commands.map((c) => `| [\`cosi ${c.name()}\`](#cosi-${c.name()}) | ${cell(c.summary())} |`),
    '',
    ...section(program),
    '## Project options',
    '',
    'The commands that run a project from its files take these too (those whose options below',
    'end with "and the project options"); `diff`, `test` and `run` take the few they name. Every',
    'command takes `-h, --help`.',
    '',
    ...optionTable(PROJECT_OPTIONS),
  ];
  for (const command of commands) out.push(...section(command));
  return `${out.join('\n').trimEnd()}\n`;
}

/** What the program printed since the last {@link afterHelp}: help goes to its stdout. */
let printed = '';

/** The program with every command defined, what it prints kept in {@link printed}. */
function buildProgram(): Command {
  const cli = createCli({
    stdout: { write: (text: string) => (printed += text) },
    stderr: { write: () => undefined },
    cwd: process.cwd(),
    env: {},
    isTTY: false,
  });
  return cli.program;
}

/** The options every command that loads a project shares. */
const PROJECT_OPTIONS = addProjectOptions(new Command('project')).options;
/** A project option as the shared definition has it: its flags and its meaning. */
const PROJECT_FLAGS = new Set(PROJECT_OPTIONS.map((o) => `${o.flags}\n${o.description}`));
const isProjectOption = (o: Option): boolean => PROJECT_FLAGS.has(`${o.flags}\n${o.description}`);

/** One command's section: heading, usage, description, arguments, options, help's epilogue. */
function section(command: Command): string[] {
  const help = command.createHelp();
  const title = command.parent ? `cosi ${command.name()}` : 'cosi';
  const out = [`## ${title}`, '', '```text', help.commandUsage(command), '```', ''];
  out.push(markdown(command.description()), '');
  const args = help.visibleArguments(command);
  if (args.length > 0) {
    out.push('| argument | meaning | default |', '| --- | --- | --- |');
    for (const arg of args) {
      const fallback =
        arg.defaultValue === undefined ? '' : `\`${JSON.stringify(arg.defaultValue)}\``;
      out.push(`| \`${help.argumentTerm(arg)}\` | ${cell(arg.description)} | ${fallback} |`);
    }
    out.push('');
  }
  const options = help.visibleOptions(command).filter((o) => o.long !== '--help');
  const own = options.filter((o) => !isProjectOption(o));
  const shared = options.filter(isProjectOption);
  if (own.length > 0) out.push(...optionTable(own));
  if (shared.length > 0) {
    const lead = own.length > 0 ? 'and' : 'The';
    out.push(
      shared.length === PROJECT_OPTIONS.length
        ? `${lead} the [project options](#project-options).`
        : `${lead} these of the [project options](#project-options): ${shared.map((o) => `\`${o.long ?? o.flags}\``).join(', ')}.`,
      '',
    );
  }
  const epilogue = afterHelp(command);
  if (epilogue !== '') out.push('```text', epilogue, '```', '');
  return out;
}

/** A table of options: flags, meaning, default. */
function optionTable(options: readonly Option[]): string[] {
  return [
    '| option | meaning | default |',
    '| --- | --- | --- |',
    ...options.map((o) => `| \`${o.flags}\` | ${cell(o.description)} | ${defaultOf(o)} |`),
    '',
  ];
}

/** An option's default as commander shows it in help, or nothing. */
function defaultOf(option: Option): string {
  if (option.defaultValueDescription !== undefined) return cell(option.defaultValueDescription);
  if (option.defaultValue === undefined || option.negate) return '';
  return `\`${JSON.stringify(option.defaultValue)}\``;
}

/** The text `addHelpText('after', ...)` adds to a command's help: its examples and notes. */
function afterHelp(command: Command): string {
  printed = '';
  command.outputHelp();
  const generated = command.helpInformation();
  const after = printed.slice(printed.indexOf(generated) + generated.length);
  return after.replace(/^\n+/, '').trimEnd();
}

/** Help text as Markdown shows it literally: no emphasis from `*`, no tags from `<dir>`. */
function markdown(text: string): string {
  return text.replace(/[*<]/g, (c) => (c === '*' ? '\\*' : '&lt;'));
}

/** Text for a table cell: one line, no unescaped pipes. */
function cell(text: string): string {
  return markdown(text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|'));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(CLI_REFERENCE_FILE, cliReference());
}
