/** The classes of checks `cosi check` runs, in the order it reports them. */
export const CHECK_CLASSES = ['manifests', 'controllers', 'convergence', 'expectations'] as const;
export type CheckClass = (typeof CHECK_CLASSES)[number];

/** One problem a check found. Positions are 1-based; 0 when not known. */
export interface CheckFinding {
  readonly code: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  /** JSON pointer inside the document; empty for a whole document or file. */
  readonly pointer: string;
  /** A readable diff, for expectation mismatches. */
  readonly diff?: string;
}

/** One case of a check: a manifest file, a controller, the convergence run, an expected resource. */
export interface CheckCase {
  readonly check: CheckClass;
  readonly name: string;
  readonly findings: readonly CheckFinding[];
}

/** Everything `cosi check` found. */
export interface CheckResult {
  readonly cases: readonly CheckCase[];
  /** Warnings count as failures. */
  readonly strict: boolean;
}

/** A finding that fails its case: an error, or a warning under `--strict`. */
export const isFailure = (f: CheckFinding, strict: boolean): boolean =>
  f.severity === 'error' || strict;

export const caseFailed = (c: CheckCase, strict: boolean): boolean =>
  c.findings.some((f) => isFailure(f, strict));

export interface ClassSummary {
  readonly check: CheckClass;
  readonly passed: number;
  readonly failed: number;
}

/** Passed and failed cases per check class, for the classes that ran. */
export function summarize(result: CheckResult): ClassSummary[] {
  return CHECK_CLASSES.map((check) => {
    const cases = result.cases.filter((c) => c.check === check);
    const failed = cases.filter((c) => caseFailed(c, result.strict)).length;
    return { check, passed: cases.length - failed, failed };
  }).filter((s) => s.passed + s.failed > 0);
}

/** Passed and failed cases over every class. */
export function totals(summary: readonly ClassSummary[]): { passed: number; failed: number } {
  let passed = 0;
  let failed = 0;
  for (const s of summary) {
    passed += s.passed;
    failed += s.failed;
  }
  return { passed, failed };
}

/** `file:line:col`, shortened to what is known. */
export function formatPlace(f: Pick<CheckFinding, 'file' | 'line' | 'col'>): string {
  if (f.file === '') return '';
  return f.line > 0 ? `${f.file}:${f.line}:${f.col}` : f.file;
}
