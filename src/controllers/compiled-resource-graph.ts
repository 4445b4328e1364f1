/**
 * What an RGD compiles to (`loaders/kro/`), and what its controller (`resource-graph.ts`) runs:
 * the instance type and its resources in dependency order, each with its template, its
 * conditions and the expressions they hold, as functions of a scope.
 */

import type { GraphExpression, LocateTemplate, TemplateField } from './template-rendering.js';

/** One resource of a graph. */
export interface GraphNode {
  readonly id: string;
  /** The cosi type of what it produces. */
  readonly type: string;
  readonly namespaced: boolean;
  readonly template: Readonly<Record<string, unknown>>;
  readonly fields: readonly TemplateField[];
  readonly includeWhen: readonly GraphExpression[];
  readonly readyWhen: readonly GraphExpression[];
  /**
   * `externalRef`: the template names an existing resource (apiVersion, kind, metadata.name and
   * namespace), which is read, never written; it waits until the resource exists.
   */
  readonly external?: boolean;
  /**
   * An `externalRef` with `metadata.selector` instead of a name: a list of every resource of the
   * kind whose labels the selector selects (`{}`: all), in `metadata.namespace` or, without one,
   * in every namespace, sorted by namespace and name. It may be empty; it never waits.
   */
  readonly externalCollection?: boolean;
  /**
   * The template is an instance of another RGD (a nested instance): it is written unowned, as
   * kro's instances are the user's, so that the other RGD's controller writes its status.
   */
  readonly nested?: boolean;
  /** `forEach`: one resource per combination of the iterators' list items (in order). */
  readonly forEach?: readonly { readonly name: string; readonly expression: GraphExpression }[];
  /** The ids this resource's template, conditions reference (not itself). */
  readonly dependencies: readonly string[];
  /**
   * What the API server makes of a rendered document: its problems against its kind's schema
   * and rules, or none and the object it stores, its kind's defaults applied (kro reads that
   * object back, so expressions see the defaults).
   */
  admit?(document: Record<string, unknown>): Admission;
  /**
   * An `externalRef`'s object as the API server stores it, from the document of the resource
   * read (its own copy, changed in place): a built-in kind's Go defaults, which its manifest is
   * held without. Absent: as read.
   */
  read?(document: Record<string, unknown>): Record<string, unknown>;
  /** Where a path of {@link template} is in the RGD's file. */
  readonly locate?: LocateTemplate;
}

/** See {@link GraphNode.admit}. */
export type Admission =
  | { readonly problems: readonly string[]; readonly stored?: undefined }
  | { readonly problems: readonly []; readonly stored: Record<string, unknown> };

/** An RGD compiled: the instance type and its resources in dependency order. */
export interface ResourceGraph {
  /** The RGD's name. */
  readonly name: string;
  /** The cosi type of the instances (the RGD's kind). */
  readonly instanceType: string;
  /** The instances' Kubernetes kind (`kro.run/v1alpha1`, `WebApp`): their children's labels name it. */
  readonly instanceKind?: {
    readonly apiVersion: string;
    readonly kind: string;
    readonly namespaced: boolean;
  };
  /** Topologically ordered (Kahn's order, ties by declaration). */
  readonly nodes: readonly GraphNode[];
  /** `spec.schema.status`: fields of the instance's status. */
  readonly status: readonly TemplateField[];
  /**
   * `spec.schema.status.conditions`: kro's custom conditions, each giving a condition (a map of
   * `type`, `status`, `reason` and `message`) or a list of them; when there are some, they are
   * the instance's conditions, in place of kro's four (`custom-conditions.ts`).
   */
  readonly conditions?: readonly GraphExpression[];
  /** Where a path below `spec.schema.status` is in the RGD's file. */
  readonly locateStatus?: LocateTemplate;
  /** Where a path below `spec.schema.spec` (a field and its `default=`) is in the RGD's file. */
  readonly locateSchema?: LocateTemplate;
  /** The RGD's document as written: another one compiles to another controller. */
  readonly source: unknown;
}

/**
 * Whether a resource's `metadata.namespace` is (or holds) a `${...}` expression: an externalRef
 * so written (`${schema.spec.targetNamespace}`, as kro's docs write for a cluster-scoped RGD)
 * may read any namespace.
 */
export function hasExpressionNamespace(node: GraphNode): boolean {
  const metadata = node.template.metadata;
  if (typeof metadata !== 'object' || metadata === null) return false;
  const namespace = (metadata as Record<string, unknown>).namespace;
  return typeof namespace === 'string' && namespace.includes('${');
}
