/**
 * The controller of a `Transforms.cosi.dev` document: a transform controller (`transform.ts`)
 * declared in YAML. Each input of the declared type (matching the declared labels) maps to one
 * output, its id and spec rendered from `${...}` templates over the input (`self`); `includeWhen`
 * false (or waiting on a field the input lacks) maps the input to nothing, so its output goes.
 *
 * The templates come compiled (`loaders/transforms/`), so this module knows nothing of CEL: it
 * only renders, as the RGD controller does (`template-rendering.ts`).
 */

import type { ResourceType } from '../engine/resource/define-resource.js';
import type { ResourceDefinition } from '../engine/resource/definition.js';
import { labelEqual, labelQuery } from '../engine/resource/label-query.js';
import { createMetadata } from '../engine/resource/metadata.js';
import type { Draft, Resource } from '../engine/resource/resource.js';
import type { Controller } from '../engine/runtime/controller.js';
import {
  evaluateConditions,
  renderTemplate,
  type GraphExpression,
  type LocateTemplate,
  type TemplateField,
} from './template-rendering.js';
import { createTransformController } from './transform.js';
import { isRecord } from '../engine/resource/plain-data.js';

type Spec = Record<string, unknown>;

/** One side of a declared transform: a type in a namespace. */
export interface DeclaredTransformKind {
  readonly definition: ResourceDefinition;
  readonly namespace: string;
}

/** A `Transforms.cosi.dev` document, compiled. */
export interface DeclaredTransform {
  /** The controller's name: the document's `metadata.id`. */
  readonly name: string;
  readonly input: DeclaredTransformKind & {
    /** Only inputs with these labels (all of them). */
    readonly labels: Readonly<Record<string, string>>;
  };
  readonly output: DeclaredTransformKind;
  /** `{ id, labels?, spec }` of the output, with `${...}` strings. */
  readonly template: Readonly<Record<string, unknown>>;
  /** The template's fields that hold expressions (paths into {@link template}). */
  readonly fields: readonly TemplateField[];
  readonly includeWhen: readonly GraphExpression[];
  /** Problems of a rendered output spec against the output type's schema and rules. */
  validate?(spec: Spec, id: string, namespace: string): string[];
  /** Where the document is (`file:line:col`), for messages. */
  readonly location: string;
  /** Where a path of {@link template} is in the document's file. */
  readonly locate?: LocateTemplate;
  /** The document as written: another one compiles to another controller. */
  readonly source: unknown;
}

/** What an input renders to. */
type Mapped =
  | { readonly state: 'output'; readonly id: string; readonly labels?: Spec; readonly spec: Spec }
  | { readonly state: 'none' }
  | { readonly state: 'error'; readonly message: string };

/**
 * The transform controller of a declared transform (see the module comment). A template that
 * fails for an input (an expression error, an id that is not a string, a spec its type refuses)
 * fails that input's transform, naming the input, the expression and its `file:line:col`: the
 * pass is retried with backoff, and `cosi check` reports it.
 */
export function createDeclaredTransformController(transform: DeclaredTransform): Controller {
  const input = resourceTypeOf(transform.input);
  const output = resourceTypeOf(transform.output);
  /** What `mapMetadata` rendered, for the `transform` that follows it on the same input. */
  const rendered = new WeakMap<Resource<Spec>, Mapped>();
  const labels = Object.entries(transform.input.labels);
  return createTransformController<Spec, Spec>(
    {
      name: transform.name,
      input,
      output,
      mapMetadata(item) {
        const mapped = mapInput(transform, item);
        rendered.set(item, mapped);
        if (mapped.state === 'none') return undefined;
        // An input whose template fails still maps to an output, so that `transform` reports it.
        const id = mapped.state === 'output' ? mapped.id : item.metadata.id;
        return output.create(id);
      },
      transform(_ctx, item, out) {
        const mapped = rendered.get(item) ?? mapInput(transform, item);
        if (mapped.state === 'error') throw new Error(mapped.message);
        if (mapped.state === 'none') return;
        const problems = transform.validate?.(mapped.spec, mapped.id, out.metadata.namespace) ?? [];
        if (problems.length > 0) {
          throw new Error(
            `${describeInput(item)}: the output ${mapped.id} is an invalid ${output.definition.displayType}: ${problems.join('; ')}`,
          );
        }
        out.spec = mapped.spec;
        if (mapped.labels !== undefined) out.metadata.labels = stringMap(mapped.labels);
      },
    },
    labels.length === 0
      ? {}
      : {
          inputListOptions: {
            labelQueries: [labelQuery(...labels.map(([key, value]) => labelEqual(key, value)))],
          },
        },
  );
}

/** Renders the output of one input; `none` when `includeWhen` is false or waits. */
function mapInput(transform: DeclaredTransform, item: Resource<Spec>): Mapped {
  const scope = { self: selfOf(item) };
  const include = evaluateConditions(transform.includeWhen, scope);
  if (include.state === 'error') {
    return { state: 'error', message: `${describeInput(item)}: includeWhen ${include.message}` };
  }
  if (include.state === 'waiting' || !include.value) return { state: 'none' };
  const document = renderTemplate(transform.template, transform.fields, scope);
  if (document.state === 'error') {
    return { state: 'error', message: `${describeInput(item)}: ${document.message}` };
  }
  // An expression that reads a field the input does not have: no output until it has it.
  if (document.state === 'waiting') return { state: 'none' };
  const value = document.value as Spec;
  if (typeof value.id !== 'string' || value.id === '') {
    return {
      state: 'error',
      message: `${describeInput(item)}: output.id must render a non-empty string, not ${JSON.stringify(value.id)}`,
    };
  }
  const spec = isRecord(value.spec) ? value.spec : {};
  return {
    state: 'output',
    id: value.id,
    spec,
    ...(isRecord(value.labels) ? { labels: value.labels } : {}),
  };
}

/** The input as its expressions see it: `self.metadata` and `self.spec`. */
function selfOf(item: Resource<Spec>): Spec {
  const { metadata } = item;
  return {
    metadata: {
      namespace: metadata.namespace,
      type: metadata.type,
      id: metadata.id,
      labels: metadata.labels,
      annotations: metadata.annotations,
    },
    spec: item.spec,
  };
}

function describeInput(item: Resource<Spec>): string {
  return `${item.metadata.type} ${item.metadata.namespace}/${item.metadata.id}`;
}

/** A declared side as the generic transform takes it. */
function resourceTypeOf({ definition, namespace }: DeclaredTransformKind): ResourceType<Spec> {
  const type = definition.type;
  return {
    definition,
    type,
    namespace,
    create: (id, spec, init): Draft<Spec> => ({
      metadata: createMetadata(init?.namespace ?? namespace, type, id, init),
      spec: spec ?? {},
    }),
    pointer: (id, ns = namespace) => ({ namespace: ns, type, id }),
    kind: (ns = namespace) => ({ namespace: ns, type }),
    is: (resource): resource is Resource<Spec> => resource.metadata.type === type,
  };
}

function stringMap(value: Spec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') out[key] = item;
  }
  return out;
}
