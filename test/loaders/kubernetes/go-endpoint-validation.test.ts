import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { endpointIpProblems } from '../../../src/loaders/kubernetes/endpoint-ip.js';

/**
 * What the API server refuses of Endpoints, EndpointSlices and a Service's IP addresses that the
 * OpenAPI passes (k8s.io/kubernetes `pkg/apis/core/validation` `validateEndpointSubsets`,
 * `ValidateEndpointIP`, `ValidateServiceClusterIPsRelatedFields`; `pkg/apis/discovery/validation`).
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'ep.yaml', text }]).findings;
const VALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

let documents = 0;
const endpoints = (subsets: string) =>
  `---\napiVersion: v1\nkind: Endpoints\nmetadata: { name: db${documents++}, namespace: default }\nsubsets: ${subsets}\n`;
const slice = (body: string) =>
  `---\napiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: { name: db${documents++}, namespace: default }\n${body}\n`;
const service = (spec: string) =>
  `---\napiVersion: v1\nkind: Service\nmetadata: { name: svc${documents++}, namespace: default }\nspec: ${spec}\n`;

describe('an address an endpoint may not have (ValidateEndpointIP)', () => {
  it.each([
    ['10.0.0.1', []],
    ['2001:db8::1', []],
    ['010.0.0.1', []],
    ['0.0.0.0', ['may not be unspecified (0.0.0.0)']],
    ['::', ['may not be unspecified (::)']],
    ['127.0.0.53', ['may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    ['::1', ['may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    // An IPv4-mapped address is its IPv4 address, as Go's net.IP reads it.
    ['::ffff:127.0.0.1', ['may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    ['169.254.169.254', ['may not be in the link-local range (169.254.0.0/16, fe80::/10)']],
    ['fe80::1', ['may not be in the link-local range (169.254.0.0/16, fe80::/10)']],
    ['febf::1', ['may not be in the link-local range (169.254.0.0/16, fe80::/10)']],
    ['fec0::1', []],
    ['224.0.0.251', ['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']],
    ['224.0.1.1', []],
    ['ff02::fb', ['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']],
    ['ff12::fb', ['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']],
    ['ff05::fb', []],
    ['db.example.com', ['must be a valid IP address']],
  ])('%s: %j', (ip, messages) => {
    expect(endpointIpProblems(ip)).toEqual(messages);
  });
});

describe('Endpoints the API server admits (validateEndpointSubsets)', () => {
  it('takes the manual endpoints of a Service without a selector', () => {
    expect(
      load(
        endpoints(
          '[{ addresses: [{ ip: 10.0.0.5, hostname: db-0, nodeName: node-1.example }], notReadyAddresses: [{ ip: "2001:db8::5" }], ports: [{ name: pg, port: 5432 }, { name: metrics, port: 9187, appProtocol: http }] }]',
        ) + endpoints('[{ notReadyAddresses: [{ ip: 10.0.0.6 }] }]'),
      ),
    ).toEqual([]);
  });

  it('refuses a subset without addresses, a bad or special address, bad names and ports', () => {
    expect(
      load(
        endpoints(
          '[{ ports: [{ port: 80 }] }, { addresses: [{ ip: db.example.com, hostname: Db_0, nodeName: "Node 1" }, { ip: 127.0.0.1 }], ports: [{ port: 0 }, { name: Web, port: 80, appProtocol: "a/b/c" }] }]',
        ),
      ).map(at),
    ).toEqual([
      ['/subsets/0', 'Required value: must specify `addresses` or `notReadyAddresses`'],
      ['/subsets/1/addresses/0/ip', `Invalid value: "db.example.com": ${VALID_IP}`],
      ['/subsets/1/addresses/0/ip', 'Invalid value: "db.example.com": must be a valid IP address'],
      ['/subsets/1/addresses/0/hostname', `Invalid value: "Db_0": ${LABEL}`],
      [
        '/subsets/1/addresses/0/nodeName',
        expect.stringMatching(/^Invalid value: "Node 1": a lowercase RFC 1123 subdomain/) as string,
      ],
      [
        '/subsets/1/addresses/1/ip',
        'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ],
      ['/subsets/1/ports/0/name', 'Required value'],
      ['/subsets/1/ports/0/port', 'Invalid value: 0: must be between 1 and 65535, inclusive'],
      ['/subsets/1/ports/1/name', `Invalid value: "Web": ${LABEL}`],
      [
        '/subsets/1/ports/1/appProtocol',
        expect.stringMatching(
          /^Invalid value: "a\/b\/c": a qualified name must consist of/,
        ) as string,
      ],
    ]);
  });
});

describe('an EndpointSlice the API server admits (ValidateEndpointSlice)', () => {
  it('takes addresses of its type, hints and named ports', () => {
    expect(
      load(
        slice(
          'addressType: IPv4\nendpoints: [{ addresses: [10.0.0.5], hostname: db-0, nodeName: node-1, hints: { forZones: [{ name: us-east-1a }] } }]\nports: [{ name: pg, port: 5432 }, { name: metrics, port: 9187 }]',
        ) +
          slice('addressType: IPv6\nendpoints: [{ addresses: ["2001:db8::5"] }]') +
          slice('addressType: FQDN\nendpoints: [{ addresses: [db.example.com.] }]\nports: [{}]'),
      ),
    ).toEqual([]);
  });

  it('refuses an address of another type, a special one, a bad domain name, repeated names', () => {
    expect(
      load(
        slice(
          'addressType: IPv4\nendpoints: [{ addresses: ["2001:db8::5", 169.254.0.1] }, { addresses: [], hints: { forZones: [{ name: a }, { name: a }] } }]\nports: [{ port: 80 }, { port: 81 }, { name: Web }]',
        ) + slice('addressType: FQDN\nendpoints: [{ addresses: [localhost, Db.example.com] }]'),
      ).map(at),
    ).toEqual([
      ['/endpoints/0/addresses/0', 'Invalid value: "2001:db8::5": must be a valid IPv4 address'],
      [
        '/endpoints/0/addresses/1',
        'Invalid value: "169.254.0.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      ],
      ['/endpoints/1/addresses', 'Required value: must contain at least 1 address'],
      ['/endpoints/1/hints/forZones/1/name', 'Duplicate value: "a"'],
      ['/ports/1/name', 'Duplicate value: ""'],
      ['/ports/2/name', `Invalid value: "Web": ${LABEL}`],
      [
        '/endpoints/0/addresses/0',
        'Invalid value: "localhost": should be a domain with at least two segments separated by dots',
      ],
      [
        '/endpoints/0/addresses/1',
        expect.stringMatching(
          /^Invalid value: "Db.example.com": a lowercase RFC 1123 subdomain/,
        ) as string,
      ],
    ]);
  });
});

describe("a Service's IP addresses (ValidateService)", () => {
  it('takes a cluster IP, a dual-stack pair, headless, and external IPs', () => {
    expect(
      load(
        service('{ clusterIP: 10.96.0.10, ports: [{ port: 53 }] }') +
          service(
            '{ clusterIP: 10.96.0.11, clusterIPs: [10.96.0.11, "fd00::11"], ipFamilies: [IPv4, IPv6], ipFamilyPolicy: RequireDualStack, ports: [{ port: 80 }] }',
          ) +
          service('{ clusterIP: None, ports: [{ port: 80 }] }') +
          service('{ externalIPs: [203.0.113.7, "2001:db8::7"], ports: [{ port: 80 }] }') +
          service('{ type: ExternalName, externalName: db.example.com, clusterIP: "" }'),
      ),
    ).toEqual([]);
  });

  it('refuses a cluster IP that is none, a special external IP, mismatched lists and families', () => {
    expect(
      load(
        service(
          '{ clusterIP: 10.96.0.300, externalIPs: [127.0.0.1, nope], ports: [{ port: 80 }] }',
        ) +
          service(
            '{ clusterIP: 10.96.0.1, clusterIPs: [10.96.0.2, 10.96.0.3], ipFamilies: [IPv6, IPv6], ports: [{ port: 80 }] }',
          ) +
          service(
            '{ clusterIP: 10.96.0.1, clusterIPs: [10.96.0.1, "fd00::1"], ipFamilies: [IPv6, IPv4], ports: [{ port: 80 }] }',
          ) +
          service('{ clusterIPs: [10.96.0.1], ports: [{ port: 80 }] }') +
          service(
            '{ type: ExternalName, externalName: db.example.com, clusterIP: 10.96.0.1, ipFamilyPolicy: SingleStack }',
          ),
      ).map(at),
    ).toEqual([
      ['/spec/clusterIP', `Invalid value: "10.96.0.300": ${VALID_IP}`],
      [
        '/spec/externalIPs/0',
        'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ],
      ['/spec/externalIPs/1', `Invalid value: "nope": ${VALID_IP}`],
      [
        '/spec/clusterIPs',
        'Invalid value: []string{"10.96.0.2", "10.96.0.3"}: first value must match `clusterIP`',
      ],
      [
        '/spec/clusterIPs',
        'Invalid value: []string{"10.96.0.2", "10.96.0.3"}: may specify no more than one IP for each IP family',
      ],
      [
        '/spec/clusterIPs/0',
        'Invalid value: "10.96.0.2": expected an IPv6 value as indicated by `ipFamilies[0]`',
      ],
      [
        '/spec/clusterIPs/1',
        'Invalid value: "10.96.0.3": expected an IPv6 value as indicated by `ipFamilies[1]`',
      ],
      ['/spec/ipFamilies/1', 'Duplicate value: "IPv6"'],
      [
        '/spec/clusterIPs/0',
        'Invalid value: "10.96.0.1": expected an IPv6 value as indicated by `ipFamilies[0]`',
      ],
      [
        '/spec/clusterIPs/1',
        'Invalid value: "fd00::1": expected an IPv4 value as indicated by `ipFamilies[1]`',
      ],
      [
        '/spec/clusterIPs',
        'Invalid value: []string{"10.96.0.1"}: must be empty when `clusterIP` is not specified',
      ],
      ['/spec/clusterIP', 'Forbidden: may not be set for ExternalName services'],
      ['/spec/ipFamilyPolicy', 'Forbidden: may not be set for ExternalName services'],
    ]);
  });
});
