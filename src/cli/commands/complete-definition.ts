/**
 * `cosi __complete`'s command-line definition: the hidden command the shell completion scripts
 * call for what only the project knows (its types, their aliases, the ids of a type).
 */
import { Command } from 'commander';
import { addProjectOptions } from '../options.js';

/** What `__complete` lists. */
export const COMPLETED_WORDS = ['types', 'ids', 'namespaces'] as const;

/** `cosi __complete types|ids [TYPE]`: its commander definition. */
export function defineComplete(): Command {
  return addProjectOptions(
    new Command('__complete')
      .description(
        'For shell completion: the types and aliases of the project (types), the ids of a type (ids TYPE), or the namespaces its resources are in (namespaces), one a line.',
      )
      .argument('<what>', COMPLETED_WORDS.join(', '))
      .argument('[type]', 'with ids: the type or alias'),
  );
}
