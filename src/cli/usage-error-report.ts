/**
 * `cosi check -o junit --bogus > report.xml`: a command line commander refuses (an unknown
 * option, a missing value) still leaves CI a valid report in the format asked for, one `setup`
 * case saying why, as a check that cannot run for any other reason does. Only `check` writes
 * reports; the other commands' usage errors are stderr's alone.
 */
import { setupFailed } from '../app/check/check-result.js';
import type { CliIo } from './io.js';
import type { CheckReportFormat } from './render/check/check-formats.js';

/** The formats whose report a CI job reads from stdout. */
const REPORT_FORMATS: readonly string[] = ['json', 'junit', 'tap', 'github'];

const isReportFormat = (format: string | undefined): format is CheckReportFormat =>
  format !== undefined && REPORT_FORMATS.includes(format);

/**
 * Writes the report of a `check` whose command line `argv` commander refused with `message`
 * (`error: unknown option '--bogus'`), when `-o` asks for a machine format; nothing otherwise.
 */
export async function writeUsageErrorReport(
  argv: readonly string[],
  message: string,
  io: CliIo,
): Promise<void> {
  if (argv.find((word) => !word.startsWith('-')) !== 'check') return;
  const format = outputFormat(argv);
  if (!isReportFormat(format)) return;
  const result = setupFailed([
    {
      code: 'usage-error',
      severity: 'error',
      message: message.replace(/^error: /, '').trim(),
      file: '',
      line: 0,
      col: 0,
      pointer: '',
    },
  ]);
  const { renderCheckReport } = await import('./render/check/check-report.js');
  const { createColors } = await import('./render/report.js');
  io.stdout.write(
    renderCheckReport(format, result, createColors(false), {
      cwd: io.cwd,
      workspace: io.env.GITHUB_WORKSPACE,
      anchor: io.cwd,
    }),
  );
}

/** The value of the last `-o` / `--output` of a command line, in any of the forms it takes. */
function outputFormat(argv: readonly string[]): string | undefined {
  let format: string | undefined;
  argv.forEach((word, i) => {
    if (word === '--') return;
    if (word === '-o' || word === '--output') format = argv[i + 1];
    else if (word.startsWith('--output=')) format = word.slice('--output='.length);
    else if (word.startsWith('-o=')) format = word.slice(3);
    else if (/^-o[a-z]/.test(word)) format = word.slice(2);
  });
  return format;
}
