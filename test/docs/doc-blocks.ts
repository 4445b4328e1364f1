/**
 * The fenced code blocks of the documentation pages (README.md and docs/*.md), with where they
 * are and whether the page marks them as not run (`<!-- not run: REASON -->`, the last line before
 * the fence that is not blank), for the tests that run them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '../..');

/** README.md and every page of docs/, as paths relative to the repository. */
export const PAGES: readonly string[] = [
  'README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

export interface DocBlock {
  readonly page: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  /** The fence's language (`sh`, `console`, `ts`, ...), or '' when it names none. */
  readonly language: string;
  readonly text: string;
  /** The reason the page gives for not running it, when it gives one. */
  readonly notRun?: string;
}

const NOT_RUN = /^<!-- not run: (.*) -->$/;

/** The fenced blocks of one page, in order. */
export function blocksOf(page: string): DocBlock[] {
  const lines = readFileSync(path.join(REPO, page), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)/.exec(lines[i] ?? '');
    if (!open) continue;
    const indent = open[1] ?? '';
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] ?? '').startsWith(`${indent}\`\`\``); i++) {
      body.push((lines[i] ?? '').slice(indent.length));
    }
    let before = start - 1;
    while (before > 0 && (lines[before] ?? '').trim() === '') before--;
    const marker = NOT_RUN.exec((lines[before] ?? '').trim());
    blocks.push({
      page,
      line: start + 1,
      language: open[2] ?? '',
      text: body.length > 0 ? `${body.join('\n')}\n` : '',
      ...(marker?.[1] !== undefined ? { notRun: marker[1] } : {}),
    });
  }
  return blocks;
}

/** Every block of every page. */
export function allBlocks(): DocBlock[] {
  return PAGES.flatMap(blocksOf);
}
