import {
  createFinding,
  FINDING_SEVERITY,
  type Finding,
  type FindingCode,
  type SourceLocation,
} from './finding.js';
import type { DocumentFindingOptions, FindingSink } from './finding-sink.js';
import type { ParsedDocument } from './parsed-document.js';
import type { Position } from './position.js';
import type { SchemaProblem } from './schema-problem.js';
import { templateVariableAt, templateVariableNote } from './template-variables.js';
import { MAX_FINDINGS_PER_DOCUMENT } from './document-finding-limit.js';

/**
 * The schema keywords whose violations leave a value's types whole (the API server's
 * `field.Invalid` and `field.Duplicate`): its CEL rules still run beside them. Any other error
 * (a wrong type, a required field, an enum, a length or count past its maximum) keeps them from
 * running, as `hasBlockingErr` in the API server's custom resource strategy. A bad `format` is
 * kept blocking: a rule reads a `date` or `date-time` as a timestamp, which it could not make.
 */
const NON_BLOCKING_KEYWORDS: ReadonlySet<string> = new Set([
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'minItems',
  'minProperties',
  'uniqueItems',
  'x-kubernetes-list-type',
  // A replica count of the scale subresource out of range or of another type (`field.Invalid`).
  'scale-replicas',
  // A number past its `int32` or `float` format (kube-openapi's plain error: `field.Invalid`).
  'format-range',
  // The object's metadata (`ValidateObjectMetaAccessor`) and an embedded resource's apiVersion,
  // kind and metadata (`objectmeta.Validate`): `field.Invalid`, checked beside the rules.
  'embedded-resource',
  'dns-1123-subdomain',
  'dns-1123-label',
  'dns-1035-label',
  'path-segment',
  'invalid-namespace',
  'label-key',
  'label-value',
  'annotation-key',
  'finalizer',
  // The API server prunes an unknown field before its rules run (strict field validation
  // refuses the request before either): a rule, which cannot name the field, runs as there.
  'unknown-field',
]);

/**
 * Whether an error leaves the value's types whole: a schema violation of a keyword above, or the
 * header's refusal of a namespace or a label key (`field.Invalid` in the API server too).
 */
function leavesTypesWhole(finding: Finding): boolean {
  const rule = finding.rule ?? '';
  switch (finding.code) {
    case 'schema-violation':
      return NON_BLOCKING_KEYWORDS.has(rule);
    case 'invalid-namespace':
      return true;
    case 'wrong-type':
      return rule === 'label-key';
    default:
      return false;
  }
}

/**
 * Collects the findings about one document, placing each by its JSON pointer, and remembers
 * whether any was an error (such a document is not loaded). Past
 * {@link MAX_FINDINGS_PER_DOCUMENT}, findings are counted in one `too-many-findings` ("and N
 * more") instead: one alias can expand into thousands of violations of the same rule.
 */
export class DocumentReport implements FindingSink {
  #hasErrors: boolean;
  #hasBlockingErrors: boolean;
  #added = 0;
  #dropped = 0;
  /** Where the "and N more" finding is in `findings`, once there is one. */
  #summaryAt = -1;
  /**
   * Where this report's errors other than schema violations are (the header's): a schema
   * violation at one of them says it again.
   */
  readonly #errorPointers = new Set<string>();

  constructor(
    readonly document: ParsedDocument,
    readonly findings: Finding[],
  ) {
    this.#hasErrors = document.hasErrors;
    this.#hasBlockingErrors = document.hasErrors;
  }

  /** A report on the same document (or item) that writes its findings to `findings` instead. */
  withFindings(findings: Finding[]): DocumentReport {
    return new DocumentReport(this.document, findings);
  }

  /** True when this document (or its YAML) has an error. */
  get hasErrors(): boolean {
    return this.#hasErrors;
  }

  /**
   * True when an error keeps a custom resource's CEL rules from running: any but a schema
   * violation of a value whose types hold (see {@link NON_BLOCKING_KEYWORDS}).
   */
  get hasBlockingErrors(): boolean {
    return this.#hasBlockingErrors;
  }

  /** Where a pointer is, as a finding location. */
  location(pointer: string, part: 'key' | 'value' = 'value'): SourceLocation {
    const { line, col } = this.locate(pointer, part);
    return { file: this.document.file, line, col, pointer: this.pointer(pointer) };
  }

  /**
   * Where the `occurrence`-th (from 0) `text` is in the scalar at a pointer, as a finding
   * location: a `${` inside a quoted or block string is at its own column.
   */
  textLocation(pointer: string, text: string, occurrence: number): SourceLocation {
    const own = this.pointer(pointer);
    const { line, col } = this.document.locateText(own, text, occurrence);
    return { file: this.document.file, line, col, pointer: own };
  }

  /** Where a pointer is, in the document (or its nearest existing parent). */
  locate(pointer: string, part: 'key' | 'value' = 'value'): Position {
    return this.document.locate(this.pointer(pointer), part);
  }

  /** Where the reported value starts: the document's root. */
  get position(): Position {
    return this.document.position;
  }

  /** A pointer relative to the reported value, as a pointer into the document. */
  pointer(pointer: string): string {
    return pointer;
  }

  add(
    code: FindingCode,
    pointer: string,
    message: string,
    options: DocumentFindingOptions = {},
  ): void {
    const error = FINDING_SEVERITY[code] === 'error';
    if (this.#isFull(error)) {
      this.#countDropped();
      return;
    }
    // A value of an unrendered template (`${CLUSTER_NAME}`) is checked as written, and says so.
    const variable =
      error && options.part !== 'key'
        ? templateVariableAt(this.document.value, this.pointer(pointer))
        : undefined;
    this.#push(
      createFinding({
        code,
        message: variable === undefined ? message : `${message}${templateVariableNote(variable)}`,
        ...this.location(pointer, options.part),
        ...(options.rule === undefined ? {} : { rule: options.rule }),
        ...(options.related === undefined ? {} : { related: options.related }),
      }),
      options.admission === true,
    );
  }

  /**
   * Reports findings another report of this document collected apart (`withFindings`), as if
   * they had been added here: a document's header is read before it is known whether the
   * document is checked at all.
   */
  adopt(findings: readonly Finding[]): void {
    for (const finding of findings) {
      if (this.#isFull(finding.severity === 'error')) this.#countDropped();
      else this.#push(finding);
    }
  }

  /** Whether a finding would be past the cap (the first error always shows: it is the refusal's reason). */
  #isFull(error: boolean): boolean {
    return this.#added >= MAX_FINDINGS_PER_DOCUMENT && (this.#hasErrors || !error);
  }

  #push(finding: Finding, admission = false): void {
    this.#added++;
    if (finding.severity === 'error') {
      this.#hasErrors = true;
      const typesHold = leavesTypesWhole(finding);
      if (!typesHold && !admission) this.#hasBlockingErrors = true;
      if (finding.code !== 'schema-violation') this.#errorPointers.add(finding.pointer);
    }
    this.findings.push(finding);
  }

  #countDropped(): void {
    this.#dropped++;
    const { file, position } = this.document;
    const summary = createFinding({
      code: 'too-many-findings',
      message: `and ${this.#dropped} more finding${this.#dropped === 1 ? '' : 's'} in this document`,
      file,
      line: position.line,
      col: position.col,
      pointer: '',
    });
    if (this.#summaryAt === -1) {
      this.#summaryAt = this.findings.length;
      this.findings.push(summary);
    } else {
      this.findings[this.#summaryAt] = summary;
    }
  }

  /**
   * Adds a `schema-violation` for each problem of the spec checked against a schema; `at` is where
   * the checked value is in the document (the whole of a Kubernetes-shaped one is checked).
   */
  addSpecViolations(problems: readonly SchemaProblem[], at = '/spec'): void {
    for (const problem of problems) {
      // A Kubernetes object, checked whole, is told what the API server would tell it, where.
      const whole = at === '' && problem.apiServerMessage !== undefined;
      const path = whole ? (problem.apiServerPath ?? problem.path) : problem.path;
      // A value the header's own check refused (a label that is no string) is said once.
      if (this.#errorPointers.has(this.pointer(`${at}${path}`))) continue;
      const code =
        problem.apiWarning === true
          ? 'api-warning'
          : problem.warning === true
            ? 'duplicate-list-item'
            : 'schema-violation';
      const message = whole ? problem.apiServerMessage : problem.message;
      this.add(code, `${at}${path}`, message, {
        part: problem.part,
        rule: problem.keyword,
        ...(problem.admission === true ? { admission: true } : {}),
      });
    }
  }
}
