import { describe, expect, it } from 'vitest';
import { nameUnexpectedToken } from '../../src/loaders/unexpected-token.js';

describe("a parser's bare Unexpected token", () => {
  it('names the token at the place it gives, as tsc and esbuild do', () => {
    const source = 'const x: number = ;\nconst f = (a) =>> a;\nconst y = 1 foo;\n';
    expect(nameUnexpectedToken('Unexpected token', source, 1, 19)).toBe('Unexpected token ";"');
    expect(nameUnexpectedToken('Unexpected token', source, 2, 17)).toBe('Unexpected token ">"');
    expect(nameUnexpectedToken('Unexpected token', source, 3, 13)).toBe('Unexpected token "foo"');
    // What the parser expected instead stays.
    expect(nameUnexpectedToken('Unexpected token, expected ":"', source, 1, 19)).toBe(
      'Unexpected token ";", expected ":"',
    );
  });

  it('says the file ended where nothing but blanks is left', () => {
    expect(nameUnexpectedToken('Unexpected token', 'export default {\n  a: [\n\n', 3, 1)).toBe(
      'Unexpected end of file',
    );
  });

  it('leaves any other message, and a place outside the source, as they are', () => {
    expect(nameUnexpectedToken('Missing semicolon.', 'a b\n', 1, 2)).toBe('Missing semicolon.');
    expect(nameUnexpectedToken('Unexpected token ";"', 'x;\n', 1, 2)).toBe('Unexpected token ";"');
    expect(nameUnexpectedToken('Unexpected token', 'x\n', 9, 1)).toBe('Unexpected token');
    expect(nameUnexpectedToken('Unexpected token', undefined, 1, 1)).toBe('Unexpected token');
  });
});
