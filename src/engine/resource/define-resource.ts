import {
  createDefinition,
  type ResourceDefinition,
  type ResourceDefinitionInput,
} from './definition.js';
import { createMetadata, type MetadataInit } from './metadata.js';
import type { TypedKind, TypedPointer } from './pointer.js';
import type { AnyResource, Draft, Resource, SpeclessDraft } from './resource.js';

/** Options for a new resource of a declared type. */
export interface NewResourceOptions extends MetadataInit {
  /** Defaults to the type's default namespace. */
  namespace?: string;
}

/**
 * A resource type declared in TypeScript: its definition and typed helpers. `Empty` is what
 * `create(id)` without a spec makes: a full `Draft<S>` when the type has a `defaultSpec` (or a
 * spec whose fields are all optional), a {@link SpeclessDraft} otherwise.
 */
export interface ResourceType<S, Empty extends Draft<S> = Draft<S>> {
  readonly definition: ResourceDefinition;
  readonly type: string;
  /** The default namespace. */
  readonly namespace: string;
  /** A new draft with this spec. */
  create(id: string, spec: S, options?: NewResourceOptions): Draft<S>;
  /** A new draft; the spec is the declared `defaultSpec` (or `{}`). */
  create(id: string, spec?: undefined, options?: NewResourceOptions): Empty;
  /** Where a resource of this type is, its spec type known to the reads given it. */
  pointer(id: string, namespace?: string): TypedPointer<S>;
  /** This type in a namespace, its spec type known to the lists given it. */
  kind(namespace?: string): TypedKind<S>;
  /** Narrows any resource to this type by its `type` field. */
  is(resource: AnyResource): resource is Resource<S>;
}

/** What `defineResource` takes: the definition, plus the spec's defaults for `create`. */
export interface DefineResourceOptions<S> extends ResourceDefinitionInput {
  /** The spec of a resource made without one. */
  readonly defaultSpec?: () => S;
}

/**
 * Declares a resource type with a typed spec.
 *
 * @example
 * interface VMSpec { cpus: number; image: string }
 * const VM = defineResource<VMSpec>({ type: 'VMs.example.org', defaultSpec: () => ({ cpus: 1, image: '' }) });
 * const web = VM.create('web-1', { cpus: 2, image: 'debian' });
 */
export function defineResource<S>(
  options: DefineResourceOptions<S> & { readonly defaultSpec: () => S },
): ResourceType<S>;
export function defineResource<S>(
  options: DefineResourceOptions<S>,
): ResourceType<S, object extends S ? Draft<S> : SpeclessDraft<S>>;
export function defineResource<S>(options: DefineResourceOptions<S>): ResourceType<S> {
  const definition = createDefinition(options);
  const defaultSpec = options.defaultSpec ?? (() => ({}) as S);
  const namespace = definition.defaultNamespace;
  const type = definition.type;
  return {
    definition,
    type,
    namespace,
    // No pointer or options object is made on the way: controllers call this once per output
    // they modify, and most pass no options.
    create: (id: string, spec?: S, init?: NewResourceOptions): Draft<S> => ({
      metadata: createMetadata(init?.namespace ?? namespace, type, id, init),
      spec: spec ?? defaultSpec(),
    }),
    pointer: (id, ns = namespace) => ({ namespace: ns, type, id }),
    kind: (ns = namespace) => ({ namespace: ns, type }),
    is: (resource): resource is Resource<S> => resource.metadata.type === type,
  };
}
