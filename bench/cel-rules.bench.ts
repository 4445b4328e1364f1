/**
 * A CRD-sized schema with hundreds of CEL rules (issue 15): 60 groups of fields, each with rules
 * on an object, on its list items and on its map values (360 rules, a few thousand evaluations
 * per document), checked over many documents at two sizes, with the growth. Baseline: the same
 * load with the rules taken out of the schema (JSON Schema only), measured in the same run, so
 * the difference is what the rules cost.
 */
import type * as Loaders from '../src/loaders/index.js';
import { compare, formatCount, growth, printTable, sizes } from './harness.js';

const GROUPS = 60;
const SIZES = sizes([200, 1_000], [50, 200]);

const GROUP_RULES = `          x-kubernetes-validations:
            - rule: self.min <= self.max
              message: min must not exceed max
            - rule: self.name.matches('^[a-z][a-z0-9-]*$')
            - rule: self.items.all(i, quantity(i.size).isLessThan(quantity(self.limit)))
              messageExpression: "'an item is over ' + self.limit"`;
const ITEM_RULES = `              x-kubernetes-validations:
                - rule: self.name.size() < 64
                - rule: isQuantity(self.size)`;
const LABEL_RULES = `              x-kubernetes-validations:
                - rule: '!format.labelValue().validate(self).hasValue()'`;

/** The definition: `GROUPS` groups, with or without their rules. */
function definition(withRules: boolean): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    groups.push(`        group${g}:
          type: object
${withRules ? `${GROUP_RULES}\n` : ''}          properties:
            min: { type: integer }
            max: { type: integer }
            name: { type: string }
            limit: { type: string }
            items:
              type: array
              items:
                type: object
${withRules ? ITEM_RULES.replace(/^ {14}/gm, '                ') + '\n' : ''}                properties:
                  name: { type: string }
                  size: { type: string }
            labels:
              type: object
              additionalProperties:
                type: string
${withRules ? LABEL_RULES.replace(/^ {14}/gm, '                ') + '\n' : ''}`);
  }
  return `metadata:
  type: rd
spec:
  type: Workloads.bench.example.org
  schema:
    type: object
    properties:
${groups.join('')}`;
}

/** `count` documents that keep every rule. */
function documents(count: number): string {
  const group = (g: number): string =>
    `  group${g}:
    min: 1
    max: ${g + 2}
    name: group-${g}
    limit: 1Ti
    items:
      - { name: a, size: 10Gi }
      - { name: b, size: 500Mi }
      - { name: c, size: 2Gi }
    labels: { team: platform, tier: gold }
`;
  const spec = Array.from({ length: GROUPS }, (_, g) => group(g)).join('');
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(`---\nmetadata:\n  type: Workloads.bench.example.org\n  id: w${i}\nspec:\n${spec}`);
  }
  return parts.join('');
}

export async function run(): Promise<void> {
  const url = new URL('../dist/loaders/index.js', import.meta.url).href;
  const loaders = (await import(url)) as typeof Loaders;
  const withRules = definition(true);
  const withoutRules = definition(false);
  const rules = (withRules.match(/- rule:/g) ?? []).length * 1;
  // Evaluations per document: 3 per group, 2 per item (3 items), 1 per label (2 labels).
  const perDocument = GROUPS * (3 + 2 * 3 + 2);
  const load = (definitionText: string, text: string, count: number): void => {
    const result = loaders.loadManifests([
      { path: 'crd.yaml', text: definitionText },
      { path: 'workloads.yaml', text },
    ]);
    if (result.findings.length > 0 || result.resources.length !== count) {
      throw new Error(`unexpected load: ${result.findings[0]?.message ?? 'resources missing'}`);
    }
  };
  const rows: string[][] = [];
  const times: number[] = [];
  for (const [i, count] of SIZES.entries()) {
    const text = documents(count);
    const { cosi, baseline } = await compare(
      count,
      { prepare: () => undefined, work: () => load(withRules, text, count) },
      { prepare: () => undefined, work: () => load(withoutRules, text, count) },
      { runs: 1 },
    );
    times.push(cosi.ms);
    const evaluations = count * perDocument;
    rows.push([
      formatCount(count),
      formatCount(evaluations),
      baseline.ms.toFixed(0),
      cosi.ms.toFixed(0),
      `${(((cosi.ms - baseline.ms) * 1000) / evaluations).toFixed(1)} µs`,
      growth(SIZES, times, i),
    ]);
  }
  printTable(
    `CEL rules: a schema of ${rules} rules (${GROUPS} groups: object, list items, map values), ${perDocument} evaluations per document`,
    ['documents', 'evaluations', 'schema only ms', 'with rules ms', 'per evaluation', 'growth'],
    rows,
  );
}
