import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import {
  completionOf,
  editLine,
  lineAtEnd,
  type EditedLine,
} from '../../../src/cli/ui/line-edit.js';

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** A line written with `|` where the cursor stands. */
const at = (marked: string): EditedLine => ({
  text: marked.replace('|', ''),
  cursor: marked.indexOf('|'),
});
const shown = ({ text, cursor }: EditedLine): string =>
  `${text.slice(0, cursor)}|${text.slice(cursor)}`;

const ctrl = (input: string) => [input, { ...NO_KEY, ctrl: true }] as const;
const alt = (input: string) => [input, { ...NO_KEY, meta: true }] as const;
const named = (name: keyof Key, extra: Partial<Key> = {}) =>
  ['', { ...NO_KEY, [name]: true, ...extra }] as const;

describe('editLine', () => {
  it.each([
    // Ctrl-U / Ctrl-K: to the start, to the end.
    ['tier=da|ta', ctrl('u'), '|ta'],
    ['tier=da|ta', ctrl('k'), 'tier=da|'],
    // Ctrl-W deletes back to a space; Alt-Backspace a word.
    ['app web-|1', ctrl('w'), 'app |1'],
    ['app web-1  |', ctrl('w'), 'app |'],
    ['tier=data|', named('delete', { meta: true }), 'tier=|'],
    ['tier=data|', named('backspace', { meta: true }), 'tier=|'],
    // Moves.
    ['tier=da|ta', ctrl('a'), '|tier=data'],
    ['tier=da|ta', ctrl('e'), 'tier=data|'],
    ['tier=da|ta', named('home'), '|tier=data'],
    ['tier=da|ta', named('end'), 'tier=data|'],
    ['tier=da|ta', ctrl('b'), 'tier=d|ata'],
    ['tier=da|ta', ctrl('f'), 'tier=dat|a'],
    ['tier=da|ta', named('leftArrow'), 'tier=d|ata'],
    ['tier=da|ta', named('rightArrow'), 'tier=dat|a'],
    ['tier=da|ta', alt('b'), 'tier=|data'],
    ['tier|=data', alt('f'), 'tier=data|'],
    ['|tier=data', alt('d'), '|=data'],
    // Deleting one character, back and forward; a grapheme is one.
    ['tier=da|ta', named('delete'), 'tier=d|ta'],
    ['tier=da|ta', named('backspace'), 'tier=d|ta'],
    ['tier=da|ta', ctrl('d'), 'tier=da|a'],
    ['ab👍🏽|', named('delete'), 'ab|'],
    ['ab|👍🏽c', ctrl('f'), 'ab👍🏽|c'],
    // Text goes in at the cursor.
    ['tier=|ta', ['da', NO_KEY] as const, 'tier=da|ta'],
    // Other control keys are no text.
    ['tier=da|ta', ctrl('x'), 'tier=da|ta'],
    ['tier=da|ta', alt('x'), 'tier=da|ta'],
    ['tier=da|ta', named('upArrow'), 'tier=da|ta'],
    ['a|', ['\u0007b\u001b', NO_KEY] as const, 'ab|'],
  ] as const)('%s with %j is %s', (before, [input, key], after) => {
    expect(shown(editLine(at(before), input, key))).toBe(after);
  });

  it('takes the completion with Tab or → at the end of the line, not inside it', () => {
    expect(shown(editLine(at('net|'), '', named('tab')[1], 'workconfig'))).toBe('networkconfig|');
    expect(shown(editLine(at('net|'), '', named('rightArrow')[1], 'workconfig'))).toBe(
      'networkconfig|',
    );
    expect(shown(editLine(at('n|et'), '', named('tab')[1], 'workconfig'))).toBe('n|et');
    expect(shown(editLine(at('net|'), '', named('tab')[1]))).toBe('net|');
  });

  it('reopens a kept filter with the cursor at its end', () => {
    expect(shown(lineAtEnd('tier=data'))).toBe('tier=data|');
  });
});

describe('completionOf', () => {
  it('completes the first name the text begins, case aside', () => {
    expect(completionOf('Net', ['vm', 'networkconfig', 'netpol'])).toBe('workconfig');
    expect(completionOf('vm', ['vm', 'vms'])).toBe('s');
    expect(completionOf('', ['vm'])).toBe('');
    expect(completionOf('x', ['vm'])).toBe('');
  });
});
