/**
 * OPA Gatekeeper's ConstraintTemplate defines a kind as a CRD does: Gatekeeper makes a CRD of it
 * for the template's constraints (`constraints.gatekeeper.sh`, cluster-scoped, `v1beta1` stored
 * and `v1alpha1` served), whose `spec` holds the template's parameters schema as `parameters`,
 * beside the `match` every constraint has (which objects it applies to), `enforcementAction`
 * and `scopedEnforcementActions`. A policy repository keeps its templates beside the
 * constraints that use them, so a constraint's parameters are checked against its template
 * here, as the API server checks them once Gatekeeper has made the CRD. The template document
 * itself is still a resource of its own kind, checked against Gatekeeper's CRDs when they are
 * given.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { DocumentReport } from '../document-report.js';
import {
  ALWAYS,
  BOOL,
  expressionProblems,
  listExpressions,
  STRING as STRING_RESULT,
  type AdmissionCel,
  type Checked,
  type WrittenExpression,
} from './admission-expressions.js';
import type { Finding } from '../finding.js';
import { isPlainObject } from '../manifest-document.js';
import type { Position } from '../position.js';

const TEMPLATE_GROUP = 'templates.gatekeeper.sh';
const TEMPLATE_KIND = 'ConstraintTemplate';
/** The group of the constraints' CRDs. */
const CONSTRAINT_GROUP = 'constraints.gatekeeper.sh';

/** Whether a Kubernetes-shaped document is a Gatekeeper ConstraintTemplate (any version). */
export function isConstraintTemplateDocument(value: Record<string, unknown>): boolean {
  return (
    value.kind === TEMPLATE_KIND &&
    typeof value.apiVersion === 'string' &&
    value.apiVersion.startsWith(`${TEMPLATE_GROUP}/`)
  );
}

const STRING: JsonSchema = { type: 'string' };
const STRINGS: JsonSchema = { type: 'array', items: STRING };
/** A namespace or name with Gatekeeper's glob: a `*` at its front, its end, or both. */
const GLOB: JsonSchema = { type: 'string', pattern: '^\\*?[-:a-z0-9]*\\*?$' };

const LABEL_SELECTOR: JsonSchema = {
  type: 'object',
  'x-kubernetes-map-type': 'atomic',
  properties: {
    matchExpressions: {
      type: 'array',
      'x-kubernetes-list-type': 'atomic',
      items: {
        type: 'object',
        required: ['key', 'operator'],
        properties: {
          key: STRING,
          operator: STRING,
          values: { ...STRINGS, 'x-kubernetes-list-type': 'atomic' },
        },
      },
    },
    matchLabels: { type: 'object', additionalProperties: STRING },
  },
};

/** `spec.match` of every constraint: which objects it reviews (Gatekeeper's `match.Match`). */
const MATCH: JsonSchema = {
  type: 'object',
  properties: {
    kinds: {
      type: 'array',
      items: { type: 'object', properties: { apiGroups: STRINGS, kinds: STRINGS } },
    },
    scope: STRING,
    namespaces: { type: 'array', items: GLOB },
    excludedNamespaces: { type: 'array', items: GLOB },
    labelSelector: LABEL_SELECTOR,
    namespaceSelector: LABEL_SELECTOR,
    name: GLOB,
    source: { type: 'string', enum: ['All', 'Generated', 'Original'] },
  },
};

const SCOPED_ENFORCEMENT_ACTIONS: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      action: STRING,
      enforcementPoints: {
        type: 'array',
        items: { type: 'object', properties: { name: STRING } },
      },
    },
  },
};

/** Where a template's parameters schema and constraint kind are. */
const VALIDATION = '/spec/crd/spec/validation';
const NAMES = '/spec/crd/spec/names';

function pathOf(value: unknown, keys: readonly string[]): unknown {
  let at = value;
  for (const key of keys) at = isPlainObject(at) ? at[key] : undefined;
  return at;
}

/**
 * The CRD Gatekeeper makes of a template for its constraints, or none when the template names
 * no kind, or a name other than its kind in lower case (Gatekeeper refuses such a template:
 * reported here).
 */
export function constraintCrd(
  template: Record<string, unknown>,
  report: DocumentReport,
): Record<string, unknown> | undefined {
  const names = pathOf(template, ['spec', 'crd', 'spec', 'names']);
  const kind = isPlainObject(names) ? names.kind : undefined;
  if (typeof kind !== 'string' || kind === '' || !isPlainObject(names)) {
    report.add(
      'invalid-definition',
      `${NAMES}/kind`,
      'a ConstraintTemplate names the kind of its constraints in spec.crd.spec.names.kind; Gatekeeper refuses one without it',
    );
    return undefined;
  }
  const plural = kind.toLowerCase();
  const metadata = template.metadata;
  const name = isPlainObject(metadata) ? metadata.name : undefined;
  if (typeof name === 'string' && name.toLowerCase() !== plural) {
    report.add(
      'invalid-definition',
      '/metadata/name',
      `Gatekeeper refuses a ConstraintTemplate whose name is not its constraint kind in lower case: name it ${plural} (spec.crd.spec.names.kind is ${kind})`,
    );
    return undefined;
  }
  const schema = constraintSchema(template);
  const version = (served: string, storage: boolean) => ({
    name: served,
    served: true,
    storage,
    subresources: { status: {} },
    additionalPrinterColumns: [
      { name: 'enforcement-action', type: 'string', jsonPath: '.spec.enforcementAction' },
    ],
    schema: { openAPIV3Schema: schema },
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${CONSTRAINT_GROUP}` },
    spec: {
      group: CONSTRAINT_GROUP,
      names: {
        kind,
        listKind: `${kind}List`,
        plural,
        singular: plural,
        ...(Array.isArray(names.shortNames) ? { shortNames: names.shortNames } : {}),
        categories: ['constraint', 'constraints'],
      },
      scope: 'Cluster',
      versions: [version('v1beta1', true), version('v1alpha1', false)],
    },
  };
}

/**
 * A constraint's schema: Gatekeeper's fields in its `spec`, and the template's parameters
 * schema as `parameters`. A template of `legacySchema` (the default of `v1beta1` and `v1alpha1`
 * templates, not of `v1`) keeps every parameter it is given: its schema is open at every object.
 */
function constraintSchema(template: Record<string, unknown>): JsonSchema {
  const validation = pathOf(template, ['spec', 'crd', 'spec', 'validation']);
  const written = isPlainObject(validation) ? validation.openAPIV3Schema : undefined;
  const legacyWritten = isPlainObject(validation) ? validation.legacySchema : undefined;
  const legacy =
    typeof legacyWritten === 'boolean'
      ? legacyWritten
      : template.apiVersion !== `${TEMPLATE_GROUP}/v1`;
  let parameters: unknown = isPlainObject(written) ? written : undefined;
  if (legacy) parameters = openEverywhere(parameters ?? {});
  return {
    type: 'object',
    properties: {
      metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 63 } } },
      spec: {
        type: 'object',
        properties: {
          match: MATCH,
          enforcementAction: { type: 'string', default: 'deny' },
          scopedEnforcementActions: SCOPED_ENFORCEMENT_ACTIONS,
          ...(parameters === undefined ? {} : { parameters }),
        },
      },
      status: { 'x-kubernetes-preserve-unknown-fields': true },
    },
  };
}

/**
 * A legacy schema as Gatekeeper opens it: every object (or value of no type) keeps unknown
 * fields, and an array without items takes any.
 */
function openEverywhere(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  const open: Record<string, unknown> = { ...schema };
  if (open.type === undefined || open.type === '' || open.type === 'object') {
    open['x-kubernetes-preserve-unknown-fields'] = true;
  } else if (open.type === 'array' && !isPlainObject(open.items) && !Array.isArray(open.items)) {
    open.items = { 'x-kubernetes-preserve-unknown-fields': true };
  }
  if (isPlainObject(open.properties)) {
    open.properties = Object.fromEntries(
      Object.entries(open.properties).map(([key, value]) => [key, openEverywhere(value)]),
    );
  }
  if (isPlainObject(open.items)) open.items = openEverywhere(open.items);
  if (isPlainObject(open.additionalProperties)) {
    open.additionalProperties = openEverywhere(open.additionalProperties);
  }
  return open;
}

/** The parameters schema's place in a constraint CRD's version (`…/properties/parameters`). */
const PARAMETERS_IN_CRD =
  /^\/spec\/versions\/\d+\/schema\/openAPIV3Schema\/properties\/spec\/properties\/parameters(?=\/|$)/;

/**
 * Findings about the CRD made of a template, placed in the template: the parameters schema's
 * at `spec.crd.spec.validation.openAPIV3Schema`, the names' at `spec.crd.spec.names`. The CRD
 * has two versions of one schema; a finding the other version repeats is said once.
 */
export class ConstraintCrdReport extends DocumentReport {
  readonly #said: Set<string>;

  constructor(
    readonly template: DocumentReport,
    findings: Finding[] = template.findings,
    said: Set<string> = new Set(),
  ) {
    super(template.document, findings);
    this.#said = said;
  }

  override withFindings(findings: Finding[]): DocumentReport {
    return new ConstraintCrdReport(this.template, findings, this.#said);
  }

  override pointer(pointer: string): string {
    return this.template.pointer(templatePointer(pointer));
  }

  override get position(): Position {
    return this.template.position;
  }

  override add(...args: Parameters<DocumentReport['add']>): void {
    const [code, pointer, message] = args;
    const version = message.replace(/versions\[\d+\]/g, 'versions[]').replace('.v1alpha1.', '.');
    const said = `${code}\n${this.pointer(pointer)}\n${version}`;
    if (this.#said.has(said)) return;
    this.#said.add(said);
    super.add(...args);
  }
}

/** Where a pointer into the CRD made of a template is in the template. */
function templatePointer(pointer: string): string {
  const parameters = PARAMETERS_IN_CRD.exec(pointer);
  if (parameters !== null) {
    return `${VALIDATION}/openAPIV3Schema${pointer.slice(parameters[0].length)}`;
  }
  // The plural, singular and list kind are made of the kind.
  if (/^\/spec\/names\/(?:plural|singular|listKind)(?:\/|$)/.test(pointer)) return `${NAMES}/kind`;
  if (pointer.startsWith('/spec/names/')) return `${NAMES}/${pointer.slice('/spec/names/'.length)}`;
  if (pointer === '/metadata/name') return '/spec/crd/spec/names/kind';
  return '/spec/crd';
}

/** The engine of a template's code written in CEL, as a ValidatingAdmissionPolicy's. */
const CEL_ENGINE = 'K8sNativeValidation';

/**
 * The problems of a template's CEL (its `K8sNativeValidation` code), which Gatekeeper compiles as
 * a ValidatingAdmissionPolicy's but does not report: an expression that does not compile fails
 * each review instead. Its variables see `params` (the constraint) beside the request's
 * variables; its validations, messages and match conditions see `variables` (Gatekeeper adds
 * `variables.params`, the constraint's parameters, and `variables.anyObject`), not `params`.
 */
export function templateExpressionProblems(
  template: Record<string, unknown>,
  cel: AdmissionCel,
): ReturnType<typeof expressionProblems> {
  const targets = pathOf(template, ['spec', 'targets']);
  if (!Array.isArray(targets)) return [];
  const found: WrittenExpression[] = [];
  const conditions = new Set([...ALWAYS, 'variables']);
  const variables = new Set([...ALWAYS, 'params', 'variables']);
  targets.forEach((target: unknown, t) => {
    const code = isPlainObject(target) ? target.code : undefined;
    if (!Array.isArray(code)) return;
    code.forEach((entry: unknown, c) => {
      if (!isPlainObject(entry) || entry.engine !== CEL_ENGINE) return;
      const source = entry.source;
      if (!isPlainObject(source)) return;
      const at = ['spec', 'targets', t, 'code', c, 'source'];
      const collect = (key: string, fields: Readonly<Record<string, Checked>>): void => {
        found.push(...listExpressions(source[key], [...at, key], fields));
      };
      collect('variables', { expression: { declared: variables } });
      collect('validations', {
        expression: { declared: conditions, result: BOOL },
        messageExpression: { declared: conditions, result: STRING_RESULT },
      });
      collect('matchCondition', { expression: { declared: conditions, result: BOOL } });
    });
  });
  return expressionProblems(found, cel);
}
