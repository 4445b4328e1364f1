import type { Command } from 'commander';
import { didYouMean } from '../engine/did-you-mean.js';

/**
 * Commander's refusal of an unknown long flag given with its value after `=`, as kubectl's
 * documentation writes flags (`--sortby=.spec.replicas`), with the flag meant: commander
 * suggests one only for a flag given alone (`--sortby`), as it compares the whole word, value
 * included. `text` as it was otherwise.
 *
 * @example
 * withLongOptionSuggestion("error: unknown option '--sortby=.spec.replicas'\n", get)
 * // "error: unknown option '--sortby=.spec.replicas'\n(Did you mean --sort-by?)\n"
 */
export function withLongOptionSuggestion(text: string, command: Command): string {
  const flag = /^error: unknown option '(--[^'=]+)=[^']*'\n?$/s.exec(text)?.[1];
  if (flag === undefined) return text;
  const longs = command.options
    .filter((option) => !option.hidden)
    .map((option) => option.long)
    .filter((long): long is string => long !== undefined);
  const near = didYouMean(flag, longs);
  return near === undefined ? text : `${text.replace(/\n?$/, '\n')}(Did you mean ${near}?)\n`;
}
