/**
 * `cosi test`'s summary counts scenarios by the part of each step's case name before its step
 * (`file › scenario › 2. step`). A long case name was cut through its middle, so the steps of one
 * scenario whose names were long counted as scenarios of their own: kro's 9 e2e suites read
 * `scenarios: 15 passed` (kro4 review, finding 5).
 */
import { describe, expect, it } from 'vitest';
import { summarizeScenarios, type CheckCase } from '../../src/app/check/check-result.js';
import { boundCheckResult } from '../../src/cli/render/check/bounded-check-result.js';
import { cli } from './run-cli.js';

const SCENARIO =
  'check-validation-markers/check-validation-markers.cosi-test.yaml › check-validation-markers';

function step(name: string): CheckCase {
  return { check: 'scenarios', name: `${SCENARIO} › ${name}`, findings: [] };
}

describe("a scenario step's case name", () => {
  it('is cut with its scenario and its step each on its own, so the summary counts one scenario', () => {
    const bounded = boundCheckResult({
      strict: false,
      cases: [
        step('1. short'),
        step(
          `2. test-invalid-min-items: ${'Expect validation error for minItems violation '.repeat(3)}`,
        ),
        step(
          `3. test-invalid-max-items: ${'Expect validation error for maxItems violation '.repeat(3)}`,
        ),
      ],
    });
    expect(summarizeScenarios(bounded)).toEqual({ passed: 1, failed: 0 });
    for (const c of bounded.cases) {
      expect(c.name.length).toBeLessThanOrEqual(160);
      expect(c.name.startsWith(`${SCENARIO} › `)).toBe(true);
    }
    expect(bounded.cases[1]?.name).toMatch(/ › 2\. test-invalid.* characters cut\] .*violation $/);
  });

  it('keeps a scenario name too long to keep whole the same in each of its steps', () => {
    const long = `${'a/'.repeat(80)}x.cosi-test.yaml › scenario`;
    const bounded = boundCheckResult({
      strict: false,
      cases: [1, 2].map((i) => ({
        check: 'scenarios' as const,
        name: `${long} › ${i}. ${'step '.repeat(30)}`,
        findings: [],
      })),
    });
    expect(summarizeScenarios(bounded)).toEqual({ passed: 1, failed: 0 });
    expect(bounded.cases.map((c) => c.name.length <= 160)).toEqual([true, true]);
  });

  it("counts kro's e2e suites once each", async () => {
    const { stdout } = await cli(['test', 'fixtures/kro-e2e']);
    expect(stdout).toBe('scenarios: 9 passed, 0 failed (steps: 46 passed, 0 failed)\n');
  }, 60_000);
});
