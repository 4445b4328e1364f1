/** A `*.cosi-test.yaml` scenario, parsed: what a run of it needs, each part with its place. */
import type { ManifestFile } from '../../loaders/manifest-resource.js';
import type { CheckCode } from '../../app/check/check-result.js';
import type { Finding } from '../../loaders/finding.js';
import type { FindingQuery } from '../assertions.js';

/** A place in a scenario file (1-based line and column). */
export interface Place {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** What a step that changes the manifests must be refused with (`expect-error`). */
export interface ErrorExpectation {
  /** A finding code of the refusal (`schema-violation`), or none: any refusal. */
  readonly code?: string;
  /** A part of the refusal's message. */
  readonly message?: string;
}

interface StepBase {
  readonly at: Place;
  /** The step's `name`, or a name made of its kind. */
  readonly name: string;
}

interface ChangeBase extends StepBase {
  readonly expectError?: ErrorExpectation;
}

/** A reference to one resource: a type (or alias), an id, maybe a namespace. */
export interface ResourceRef {
  readonly at: Place;
  readonly type: string;
  readonly id: string;
  readonly namespace?: string;
  /** A Kubernetes-shaped reference: `type` is the kind, of this `apiVersion`. */
  readonly apiVersion?: string;
}

/** A document an `expect` step matches partially against the resource it names. */
export interface ExpectedDocument {
  readonly at: Place;
  readonly ref: ResourceRef;
  /** The document as written; matched against the resource as `cosi get -o yaml` prints it. */
  readonly document: Record<string, unknown>;
}

export type Step =
  | (ChangeBase & {
      readonly kind: 'apply';
      /** Manifest paths, absolute. */
      readonly paths: readonly string[];
      /** Inline documents, at their place in the scenario. */
      readonly files: readonly ManifestFile[];
    })
  | (ChangeBase & {
      readonly kind: 'edit';
      readonly ref: ResourceRef;
      /** Merged into the spec (JSON merge patch: `null` removes a key). */
      readonly spec?: unknown;
      /**
       * Merged into the object as `kubectl patch --type merge` takes it: a Kubernetes kind's
       * fields (`spec`, `data`, ...), a cosi type's `spec`, and either's `metadata.labels` and
       * `metadata.annotations`.
       */
      readonly patch?: Readonly<Record<string, unknown>>;
      readonly labels?: Readonly<Record<string, string | null>>;
      readonly annotations?: Readonly<Record<string, string | null>>;
    })
  | (ChangeBase & { readonly kind: 'destroy'; readonly refs: readonly ResourceRef[] })
  | (StepBase & { readonly kind: 'advance'; readonly ms: number })
  | (StepBase & { readonly kind: 'expect'; readonly documents: readonly ExpectedDocument[] })
  | (StepBase & { readonly kind: 'expect-absent'; readonly refs: readonly ResourceRef[] })
  | (StepBase & {
      readonly kind: 'expect-findings';
      readonly findings: readonly ExpectedFinding[];
    })
  | (StepBase & { readonly kind: 'expect-converged'; readonly converged: boolean });

/** A finding an `expect-findings` step looks for. */
export interface ExpectedFinding extends FindingQuery {
  readonly at: Place;
}

export type StepKind = Step['kind'];

/** One scenario: a fresh project, then its steps in order. */
export interface Scenario {
  readonly at: Place;
  readonly name: string;
  /** The scenario file's directory, absolute: its paths are relative to it. */
  readonly dir: string;
  /** `config`, resolved; absent: looked for from the manifests and the scenario's directory. */
  readonly config?: string;
  /** Where `config` is written: a config that does not load is reported there. */
  readonly configAt?: Place;
  /** Where `manifests` is written: starting manifests that do not load are reported there. */
  readonly manifestsAt?: Place;
  /**
   * `manifests`: the paths the project starts from, absolute; absent: those its config names
   * (read as the CLI reads them given no `-f`).
   */
  readonly manifests?: readonly string[];
  readonly kubernetesVersion?: string;
  /**
   * `converge: false`: the steps start on the manifests as loaded, nothing run yet (as
   * `createTestProject` starts), so `advance` steps see a polling controller's visits one by one.
   */
  readonly converge?: false;
  readonly steps: readonly Step[];
}

/** A problem that makes a scenario file unusable: exit 2, at its place. */
export interface ScenarioProblem {
  readonly at: Place;
  readonly message: string;
}

/** An error finding of a scenario at `at` (a step, or the scenario itself). */
export function failureAt(code: CheckCode, at: Place, message: string): Finding<CheckCode> {
  return {
    code,
    severity: 'error',
    message,
    file: at.file,
    line: at.line,
    col: at.col,
    pointer: '',
  };
}
