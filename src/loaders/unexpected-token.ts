/**
 * The token a parser's bare "Unexpected token" is about, read from the source at the place it
 * gives, so that the message says what it found, as tsc and esbuild do (`Unexpected token ";"`,
 * `Unexpected end of file`): jiti's parser names the place only.
 */

/** How long a token is quoted at most: an identifier or a number past that is cut. */
const MAX_TOKEN_LENGTH = 40;

/**
 * `message` with the token at `line`:`col` (1-based) of `source` named, when the message is a bare
 * "Unexpected token" (followed by nothing, or by `, expected ...`); else `message` as it is.
 *
 * @example
 * nameUnexpectedToken('Unexpected token', 'const x = ;\n', 1, 11) // 'Unexpected token ";"'
 */
export function nameUnexpectedToken(
  message: string,
  source: string | undefined,
  line: number,
  col: number,
): string {
  const bare = /^Unexpected token(?=$|,)/.exec(message);
  if (bare === null || source === undefined) return message;
  const expected = message.slice(bare[0].length);
  const lines = source.split('\n');
  const rest = lines[line - 1]?.slice(col - 1);
  if (rest === undefined) return message;
  if (rest.trim() === '' && lines.slice(line).every((l) => l.trim() === '')) {
    return `Unexpected end of file${expected}`;
  }
  const token = /^(?:[\p{L}_$][\p{L}\p{N}_$]*|\d[\w.]*|\S)/u.exec(rest)?.[0];
  if (token === undefined) return message;
  const shown = token.length > MAX_TOKEN_LENGTH ? `${token.slice(0, MAX_TOKEN_LENGTH)}...` : token;
  return `Unexpected token ${JSON.stringify(shown)}${expected}`;
}
