/**
 * The command-line entry point. `bin/cosi.js` calls `main` and sets the exit code it returns.
 */
export async function main(argv: readonly string[]): Promise<number> {
  await Promise.resolve();
  process.stderr.write(`cosi: no commands yet (got ${argv.join(' ')})\n`);
  return 2;
}
