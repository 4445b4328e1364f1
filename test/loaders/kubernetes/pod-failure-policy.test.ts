import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (text: string) => loadManifests([{ path: 'job.yaml', text }]).findings;
const at = (f: Finding) => [f.line, f.col, f.pointer, f.message];

const JOBS = `apiVersion: batch/v1
kind: Job
metadata: {name: jb}
spec:
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {operator: In, values: [0, 3, 2]}
    - action: Ignore
      onExitCodes: {operator: In, values: [1]}
      onPodConditions: [{type: DisruptionTarget}]
    - action: FailJob
    - action: Ignore
      onExitCodes: {operator: In, values: []}
    - action: Ignore
      onExitCodes: {operator: Foo, values: [4], containerName: nope}
    - action: Ignore
      onPodConditions: [{type: "bad type!", status: Maybe}]
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: failindex}
spec:
  podFailurePolicy:
    rules:
    - action: FailIndex
      onExitCodes: {operator: In, values: [42]}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
`;

describe("a Job's podFailurePolicy rules (validatePodFailurePolicyRule)", () => {
  it('refuses rules Go refuses, each at its field', () => {
    expect(load(JOBS).map(at)).toEqual([
      [
        8,
        43,
        '/spec/podFailurePolicy/rules/0/onExitCodes/values',
        'Invalid value: []int32{0, 3, 2}: must be ordered',
      ],
      [
        8,
        44,
        '/spec/podFailurePolicy/rules/0/onExitCodes/values/0',
        'Invalid value: 0: must not be 0 for the In operator',
      ],
      [
        9,
        7,
        '/spec/podFailurePolicy/rules/1',
        'Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
      ],
      [
        12,
        7,
        '/spec/podFailurePolicy/rules/2',
        'Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      ],
      [
        14,
        43,
        '/spec/podFailurePolicy/rules/3/onExitCodes/values',
        'Invalid value: []int32{}: at least one value is required',
      ],
      [
        16,
        31,
        '/spec/podFailurePolicy/rules/4/onExitCodes/operator',
        'Unsupported value: "Foo": supported values: "In", "NotIn"',
      ],
      [
        16,
        64,
        '/spec/podFailurePolicy/rules/4/onExitCodes/containerName',
        'Invalid value: "nope": must be one of the container or initContainer names in the pod template',
      ],
      [
        18,
        32,
        '/spec/podFailurePolicy/rules/5/onPodConditions/0/type',
        "Invalid value: \"bad type!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
      [
        18,
        53,
        '/spec/podFailurePolicy/rules/5/onPodConditions/0/status',
        'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      ],
      [
        30,
        15,
        '/spec/podFailurePolicy/rules/0/action',
        'Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
      ],
    ]);
  });

  it('takes the rules of the Kubernetes documentation', () => {
    expect(
      load(`apiVersion: batch/v1
kind: Job
metadata: {name: ok}
spec:
  completionMode: Indexed
  completions: 3
  backoffLimitPerIndex: 1
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {containerName: main, operator: In, values: [1, 2, 42]}
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget}]
    - action: FailIndex
      onExitCodes: {operator: NotIn, values: [0]}
  template:
    spec:
      restartPolicy: Never
      initContainers: [{name: init, image: busybox}]
      containers: [{name: main, image: busybox}]
`),
    ).toEqual([]);
  });
});
