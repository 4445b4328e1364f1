/**
 * What a check of one document writes its findings to. The checks low in the loaders (a
 * document's header, a definition's schema) take this rather than `DocumentReport`, which makes
 * and places the findings (`document-report.ts`, the one implementation), so that they need not
 * sit above it.
 */

import type { FindingCode } from './finding-code.js';
import type { SourceLocation } from './position.js';
import type { SchemaProblem } from './schema-problem.js';

/** Extra fields of a finding about a document. */
export interface DocumentFindingOptions {
  /** Point at the key of the last pointer segment rather than at its value. */
  readonly part?: 'key' | 'value';
  readonly rule?: string;
  readonly related?: SourceLocation;
  /**
   * Found by an admission webhook (cert-manager's, Kyverno's), which runs after the API server
   * has checked the object, its CEL rules included: the error keeps no rule from running.
   */
  readonly admission?: true;
}

/** Takes findings about one document, each placed by its JSON pointer inside the document. */
export interface FindingSink {
  add(code: FindingCode, pointer: string, message: string, options?: DocumentFindingOptions): void;
  /** Each problem as a `schema-violation` at its path below `at` (`/spec` by default). */
  addSpecViolations(problems: readonly SchemaProblem[], at?: string): void;
}
