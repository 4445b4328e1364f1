/**
 * `cosi run --log-format json` writes one JSON object per line on stderr, for log shippers; so
 * do the errors said before or around its log (`cosi: unknown option '--bogus'`, a bad
 * `--state`): a line that would start with `cosi: ` becomes `{"time","level":"error","msg"}`.
 */

/** Whether the command line is `run` with its log as JSON (`--log-format json`, `=json`). */
export function logsAsJson(argv: readonly string[]): boolean {
  if (argv.find((word) => !word.startsWith('-')) !== 'run') return false;
  let format: string | undefined;
  argv.forEach((word, i) => {
    if (word === '--log-format') format = argv[i + 1];
    else if (word.startsWith('--log-format=')) format = word.slice('--log-format='.length);
  });
  return format === 'json';
}

/** `stderr`, with each `cosi: ...` error written as a JSON log line; other text as it is. */
export function jsonErrorLines(stderr: { write(text: string): unknown }): {
  write(text: string): unknown;
} {
  return {
    write(text: string): unknown {
      if (!text.startsWith('cosi: ')) return stderr.write(text);
      const msg = text.slice('cosi: '.length).replace(/\n$/, '');
      return stderr.write(
        `${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg })}\n`,
      );
    },
  };
}
