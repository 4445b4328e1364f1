import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (text: string) => loadManifests([{ path: 'rb.yaml', text }]).findings;
const at = (f: Finding) => [f.line, f.col, f.pointer, f.message];
const binding = (roleName: string, subjects: string) =>
  `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: ns}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ${roleName}}
subjects:
${subjects}`;

describe("a RoleBinding's names (ValidateRoleBinding, ValidateRoleBindingSubject)", () => {
  it('refuses an empty role name, an empty subject name and a ServiceAccount name that is no DNS subdomain', () => {
    expect(
      load(
        binding(
          '""',
          '- {kind: ServiceAccount, name: "Build_Bot"}\n- {kind: User, name: "", apiGroup: rbac.authorization.k8s.io}\n',
        ),
      ).map(at),
    ).toEqual([
      [4, 66, '/roleRef/name', 'Required value'],
      [
        6,
        32,
        '/subjects/0/name',
        "Invalid value: \"Build_Bot\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      [7, 22, '/subjects/1/name', 'Required value'],
    ]);
  });

  it('takes named roles and subjects, a User or Group by any name', () => {
    expect(
      load(
        binding(
          'reader',
          '- {kind: ServiceAccount, name: build-bot}\n- {kind: User, name: "Jane Doe", apiGroup: rbac.authorization.k8s.io}\n- {kind: Group, name: "system:authenticated"}\n',
        ),
      ),
    ).toEqual([]);
  });
});
