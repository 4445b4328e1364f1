import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (text: string) => loadManifests([{ path: 'crd.yaml', text }]).findings;
const at = (f: Finding) => [f.code, f.line, f.col, f.pointer, f.message];
const crd = (names: string, conversion = '') => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: ${names}
  scope: Namespaced
${conversion}  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`;
const NAMES = '{kind: Thing, plural: things}';

describe("a CRD's conversion and list kind (validateCustomResourceConversion, ValidateCustomResourceDefinitionNames)", () => {
  it('refuses a list kind that is the kind', () => {
    expect(load(crd('{kind: Thing, plural: things, listKind: Thing}')).map(at)).toEqual([
      [
        'invalid-definition',
        6,
        50,
        '/spec/names/listKind',
        'Invalid value: "Thing": kind and listKind may not be the same',
      ],
    ]);
  });

  it('refuses a Webhook strategy without its webhook', () => {
    expect(load(crd(NAMES, '  conversion: {strategy: Webhook}\n')).map(at)).toEqual([
      [
        'invalid-definition',
        8,
        15,
        '/spec/conversion',
        'Required value: required when strategy is set to Webhook (webhook.clientConfig)',
      ],
      [
        'invalid-definition',
        8,
        15,
        '/spec/conversion',
        'Required value (webhook.conversionReviewVersions)',
      ],
    ]);
  });

  it("refuses a webhook's plain http URL and review versions the API server does not speak", () => {
    expect(
      load(
        crd(
          NAMES,
          '  conversion:\n    strategy: Webhook\n    webhook:\n      clientConfig: {url: "http://convert.example.com/"}\n      conversionReviewVersions: [v2]\n',
        ),
      ).map(at),
    ).toEqual([
      [
        'invalid-definition',
        11,
        27,
        '/spec/conversion/webhook/clientConfig/url',
        'Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      ],
      [
        'invalid-definition',
        12,
        33,
        '/spec/conversion/webhook/conversionReviewVersions',
        'Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
      ],
    ]);
  });

  it('takes a webhook by service, and no conversion webhook with strategy None', () => {
    expect(
      load(
        crd(
          NAMES,
          '  conversion:\n    strategy: Webhook\n    webhook:\n      clientConfig: {service: {name: conv, namespace: system, path: /convert}}\n      conversionReviewVersions: [v1]\n',
        ),
      ),
    ).toEqual([]);
    expect(load(crd(NAMES, '  conversion: {strategy: None}\n'))).toEqual([]);
  });
});
