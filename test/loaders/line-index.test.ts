import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineCounter } from 'yaml';
import { LineIndex } from '../../src/loaders/line-index.js';

describe('LineIndex', () => {
  it("places every offset where yaml's LineCounter does", () => {
    const text = fc
      .array(fc.constantFrom('a', 'bc', '\n', '\r\n', ' ', '😀'), { maxLength: 40 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const counter = new LineCounter();
        counter.addNewLine(0);
        for (let i = t.indexOf('\n'); i !== -1; i = t.indexOf('\n', i + 1))
          counter.addNewLine(i + 1);
        const index = new LineIndex(t);
        expect(index.lines).toBe(counter.lineStarts.length);
        for (let offset = 0; offset <= t.length + 1; offset++) {
          expect(index.linePos(offset)).toEqual(counter.linePos(offset));
        }
      }),
    );
  });
});

describe('LineIndex of an excerpt of a file', () => {
  it('places every offset of the excerpt where the index of the whole file does', () => {
    const text = fc
      .array(fc.constantFrom('a', 'bc', '\n', ' ', '😀'), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (before, excerpt) => {
        const file = new LineIndex(`${before}${excerpt}`);
        const origin = file.linePos(before.length);
        const index = new LineIndex(excerpt, origin);
        for (let offset = 0; offset <= excerpt.length; offset++) {
          expect(index.linePos(offset)).toEqual(file.linePos(before.length + offset));
        }
      }),
    );
  });
});
