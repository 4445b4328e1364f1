import { loadProjectDefinitions, runProject } from '../../app/run-project.js';
import { compareStrings } from '../../engine/compare-strings.js';
import type { CliCommand, CommandResult } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { toRunOptions, type CommonFlags } from '../options.js';
import { defineComplete } from './complete-definition.js';

/**
 * `cosi __complete types` / `cosi __complete ids TYPE` / `cosi __complete namespaces`: the words
 * a completion script offers, read from the project in context (its config's manifests, or
 * `-f`): every type's full name, display name and aliases; the ids of one type after a run; or
 * the namespaces of the resources after a run (for `-n`). Whatever goes wrong (no project,
 * a config that does not load) completes nothing: a shell's TAB must never print errors.
 */
export const completeCommand: CliCommand<[string, string | undefined, CommonFlags], string[]> = {
  define: defineComplete,
  run: complete,
  render: (io, { result }) => {
    if (result.length > 0) io.stdout.write(`${result.join('\n')}\n`);
  },
};

async function complete(
  io: CliIo,
  what: string,
  type: string | undefined,
  flags: CommonFlags,
): Promise<CommandResult<string[]>> {
  try {
    const words =
      what === 'ids' && type !== undefined
        ? await ids(io, type, flags)
        : what === 'namespaces'
          ? await namespaces(io, flags)
          : [];
    const all = what === 'types' ? await types(io, flags) : words;
    return { exitCode: EXIT.ok, result: [...new Set(all)].sort(compareStrings) };
  } catch {
    return { exitCode: EXIT.ok, result: [] };
  }
}

async function types(io: CliIo, flags: CommonFlags): Promise<string[]> {
  const options = await toRunOptions({ ...flags, quiet: true }, io, {
    manifestsOptional: 'always',
  });
  const { manifests } = await loadProjectDefinitions(options);
  return manifests.registry
    .all()
    .flatMap((d) => [d.type, d.displayType.toLowerCase(), ...d.aliases]);
}

async function namespaces(io: CliIo, flags: CommonFlags): Promise<string[]> {
  const options = await toRunOptions({ ...flags, quiet: true }, io, {
    manifestsOptional: 'always',
  });
  const run = await runProject({ ...options, releaseManifests: true });
  return (run.outcome?.snapshot.resources ?? []).map((r) => r.metadata.namespace);
}

async function ids(io: CliIo, type: string, flags: CommonFlags): Promise<string[]> {
  const options = await toRunOptions({ ...flags, quiet: true }, io, {
    manifestsOptional: 'always',
  });
  const run = await runProject({ ...options, releaseManifests: true });
  const outcome = run.outcome;
  if (outcome === undefined) return [];
  const resolved = outcome.project.registry.resolve(type).type;
  return outcome.snapshot.resources
    .filter((r) => r.metadata.type === resolved)
    .map((r) => r.metadata.id);
}
