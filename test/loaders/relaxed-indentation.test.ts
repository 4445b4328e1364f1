/**
 * Quoted values and flow collections whose lines go on at their key's column: kubectl (go-yaml)
 * reads them, YAML 1.2 does not (`relaxed-indentation.ts`, and its use in `parseManifest`).
 */
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/loaders/parse/parse-manifest.js';
import { revivedParse, toTransfer } from '../../src/loaders/parse-transfer.js';
import { relaxIndentation } from '../../src/loaders/relaxed-indentation.js';

/** OpenTelemetry's operator bundle (v0.86.0), as its CRDs' descriptions are written. */
const QUOTED = `apiVersion: v1
kind: ConfigMap
metadata:
  name: demo
  annotations:
    description: 'Attrs defines agent specific attributes.
    The precedence is: \`agent default\` > \`instrument
    spec\`. It''s documented.'
    other: "a \\"quoted\\"
    word"
data:
  a: b
`;

/** Argo Workflows' examples: a flow sequence whose closing bracket is at the key's column. */
const FLOW = `apiVersion: v1
kind: Pod
metadata:
  name: demo
spec:
  containers:
  - name: c
    image: busybox
    args: ["
      echo hello
    ", {a: 1,
    b: 2}]
    command: |
      a block scalar's "quote
      [ and its end
`;

describe('relaxIndentation', () => {
  it("indents the lines of a quoted value or flow collection just past their key's column", () => {
    const relaxed = relaxIndentation(QUOTED);
    expect(relaxed?.constructs).toEqual([
      { line: 6, firstShifted: 7, keyColumn: 5 },
      { line: 9, firstShifted: 10, keyColumn: 5 },
    ]);
    expect([...(relaxed?.shifts ?? [])]).toEqual([
      [7, 1],
      [8, 1],
      [10, 1],
    ]);
    // Only spaces at the starts of lines: the same lines.
    expect(relaxed?.text.split('\n').map((l) => l.trim())).toEqual(
      QUOTED.split('\n').map((l) => l.trim()),
    );
  });

  it('leaves well-indented text, plain scalars and block scalars alone', () => {
    expect(relaxIndentation('a:\n  b: "x\n    y"\n  c: [1,\n    2]\n')).toBeUndefined();
    expect(relaxIndentation('a: |\n  "open\nb: 1\n')).toBeUndefined();
    expect(relaxIndentation("a: it's\nb: don't\n")).toBeUndefined();
    // A lone dash (an empty item) ends: the walk of a line's items once looped on it.
    expect(relaxIndentation('a: 1\n-\n- -\nb: 2\n')).toBeUndefined();
  });
});

describe('parseManifest of what kubectl reads', () => {
  it('reads the values kubectl reads, and says so once a file, as a warning', () => {
    const parsed = parseManifest(QUOTED, 'cm.yaml');
    expect(parsed.findings.map((f) => [f.code, f.severity, f.line, f.message])).toEqual([
      [
        'yaml-warning',
        'warning',
        7,
        'this line goes on with the value of line 6, but is not indented past its key (column 5): kubectl (go-yaml) reads it so, YAML 1.2 does not; indent it (and 1 more values in this file)',
      ],
    ]);
    const value = parsed.documents[0]?.value as { metadata: { annotations: object } };
    expect(value.metadata.annotations).toEqual({
      description:
        "Attrs defines agent specific attributes. The precedence is: `agent default` > `instrument spec`. It's documented.",
      other: 'a "quoted" word',
    });
    const pod = parseManifest(FLOW, 'pod.yaml');
    expect(pod.findings.map((f) => f.code)).toEqual(['yaml-warning']);
    const spec = (pod.documents[0]?.value as { spec: { containers: { args: unknown }[] } }).spec;
    expect(spec.containers[0]?.args).toEqual([' echo hello ', { a: 1, b: 2 }]);
  });

  it('places what is on a relaxed line at its column in the file, here and across threads', () => {
    const parsed = parseManifest(FLOW, 'pod.yaml');
    // `b: 2` is on line 12, column 5 as written (column 6 in the relaxed text).
    const at = '/spec/containers/0/args/1/b';
    expect(parsed.documents[0]?.locate(at)).toEqual({ line: 12, col: 8 });
    const revived = revivedParse(structuredClone(toTransfer(parsed, FLOW)));
    expect(revived.documents[0]?.locate(at)).toEqual({ line: 12, col: 8 });
  });

  it('keeps the errors of text that is broken otherwise too', () => {
    const broken = `${QUOTED}  : : [\n`;
    expect(parseManifest(broken, 'cm.yaml').findings.map((f) => f.code)).toContain('yaml-syntax');
  });
});
