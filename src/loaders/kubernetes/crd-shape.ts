/**
 * A CustomResourceDefinition's document as cosi reads it: the schema its fields must pass before
 * anything else is read (`CRD_SCHEMA`), and the spec that passes it, typed.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';

/** What the fields of a CRD must look like (what cosi reads of it; the rest is accepted). */
export const CRD_SCHEMA = {
  type: 'object',
  required: ['spec'],
  properties: {
    spec: {
      type: 'object',
      required: ['group', 'names', 'scope', 'versions'],
      properties: {
        group: { type: 'string', minLength: 1 },
        scope: { enum: ['Namespaced', 'Cluster'] },
        preserveUnknownFields: { type: 'boolean' },
        names: {
          type: 'object',
          required: ['plural', 'kind'],
          properties: {
            plural: { type: 'string', minLength: 1 },
            singular: { type: 'string' },
            kind: { type: 'string', minLength: 1 },
            listKind: { type: 'string' },
            shortNames: { type: 'array', items: { type: 'string', minLength: 1 } },
            categories: { type: 'array', items: { type: 'string' } },
          },
        },
        versions: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['name', 'served', 'storage'],
            properties: {
              name: { type: 'string', minLength: 1 },
              served: { type: 'boolean' },
              storage: { type: 'boolean' },
              schema: {
                type: 'object',
                properties: { openAPIV3Schema: { type: 'object' } },
              },
              additionalPrinterColumns: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['name', 'type', 'jsonPath'],
                  properties: {
                    name: { type: 'string', minLength: 1 },
                    // The API server's printerColumnDatatypes and column formats.
                    type: { enum: ['integer', 'number', 'string', 'boolean', 'date'] },
                    format: {
                      enum: [
                        'int32',
                        'int64',
                        'float',
                        'double',
                        'byte',
                        'date',
                        'date-time',
                        'password',
                      ],
                    },
                    jsonPath: { type: 'string', minLength: 1 },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

export interface CrdNames {
  readonly plural: string;
  readonly singular?: string;
  readonly kind: string;
  readonly listKind?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
}

export interface CrdVersionSpec {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly schema?: { readonly openAPIV3Schema?: JsonSchema };
  readonly subresources?: { readonly status?: unknown };
  readonly additionalPrinterColumns?: readonly {
    readonly name: string;
    readonly jsonPath: string;
    readonly priority?: number;
  }[];
}

export interface CrdSpec {
  readonly group: string;
  readonly preserveUnknownFields?: boolean;
  readonly scope: 'Namespaced' | 'Cluster';
  readonly names: CrdNames;
  readonly versions: readonly CrdVersionSpec[];
}
