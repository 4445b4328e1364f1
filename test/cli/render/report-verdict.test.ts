import { describe, expect, it } from 'vitest';
import type { ReportData } from '../../../src/app/report/report-data.js';
import { renderVerdict } from '../../../src/cli/render/report-html/report-static.js';

/** A passed report of a large run, summarised as `cosi check` summarises it. */
function data(): ReportData {
  return {
    title: 'synthetic',
    verdict: 'passed',
    summary: {
      text: {
        notes: [],
        lines: ['manifests: 1,720 resources in 18 files'],
        total: '1,724 passed, 0 failed',
      },
      classes: [],
      passed: 1724,
      failed: 0,
      manifests: {
        resources: 1720,
        files: 18,
        valid: 1720,
        invalid: 0,
        skipped: 0,
        failedFiles: 0,
      },
      convergence: {
        converged: true,
        reason: 'converged',
        rounds: 1,
        reconciles: 1741,
        writes: 6820,
        errors: 0,
        elapsed: 12500,
      },
    },
    findings: [],
    moreFindings: 0,
    graph: { controllers: [], types: [], edges: [] },
    controllers: [],
    resources: [],
  };
}

describe("the report's summary", () => {
  it('counts the run as the lines above it count, in thousands', () => {
    const items = [...renderVerdict(data()).matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);
    expect(items).toEqual([
      '1,724 passed, 0 failed',
      'manifests: 1,720 resources in 18 files',
      'converged: 1 round, 1,741 reconciles, 6,820 writes, 0 errors, virtual time 12,500 ms',
    ]);
  });
});
