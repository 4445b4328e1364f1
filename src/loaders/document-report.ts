import { createFinding, type Finding, type FindingCode, type SourceLocation } from './finding.js';
import type { ParsedDocument } from './parse-manifest.js';
import type { SchemaProblem } from './schema-compiler.js';

/** Extra fields of a finding about a document. */
export interface DocumentFindingOptions {
  /** Point at the key of the last pointer segment rather than at its value. */
  readonly part?: 'key' | 'value';
  readonly rule?: string;
  readonly related?: SourceLocation;
}

/**
 * Collects the findings about one document, placing each by its JSON pointer, and remembers
 * whether any was an error (such a document is not loaded).
 */
export class DocumentReport {
  #hasErrors: boolean;

  constructor(
    readonly document: ParsedDocument,
    readonly findings: Finding[],
  ) {
    this.#hasErrors = document.hasErrors;
  }

  /** True when this document (or its YAML) has an error. */
  get hasErrors(): boolean {
    return this.#hasErrors;
  }

  /** Where a pointer is, as a finding location. */
  location(pointer: string, part: 'key' | 'value' = 'value'): SourceLocation {
    const { line, col } = this.document.locate(pointer, part);
    return { file: this.document.file, line, col, pointer };
  }

  add(
    code: FindingCode,
    pointer: string,
    message: string,
    options: DocumentFindingOptions = {},
  ): void {
    const finding = createFinding({
      code,
      message,
      ...this.location(pointer, options.part),
      ...(options.rule === undefined ? {} : { rule: options.rule }),
      ...(options.related === undefined ? {} : { related: options.related }),
    });
    if (finding.severity === 'error') this.#hasErrors = true;
    this.findings.push(finding);
  }

  /** Adds a `schema-violation` for each problem of the spec checked against a schema. */
  addSpecViolations(problems: readonly SchemaProblem[]): void {
    for (const problem of problems) {
      this.add('schema-violation', `/spec${problem.path}`, problem.message, {
        part: problem.part,
        rule: problem.keyword,
      });
    }
  }
}
