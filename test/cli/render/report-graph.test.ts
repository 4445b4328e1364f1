import { describe, expect, it } from 'vitest';
import type { ReportData, ReportResource } from '../../../src/app/report/report-data.js';
import { renderHtmlReport } from '../../../src/cli/render/report-html/html-report.js';
import {
  MAX_DRAWN_RESOURCES,
  reportGraph,
} from '../../../src/cli/render/report-html/report-graph.js';
import { SVG_NODE_LIMIT } from '../../../src/cli/render/graph/drawn-nodes.js';

/** A report of `resources` manifest VMs and, beside them, `types` other types no one writes. */
function data(resources: number, types = 0): ReportData {
  const list: ReportResource[] = Array.from({ length: resources }, (_, i) => ({
    key: `default/VMs.example.org/vm-${i}`,
    namespace: 'default',
    type: 'VMs.example.org',
    id: `vm-${i}`,
    version: 1,
    owner: '',
    phase: 'running',
    from: [],
  }));
  return {
    title: 'synthetic',
    verdict: 'passed',
    summary: {
      text: { notes: [], lines: [], total: '0 passed, 0 failed' },
      classes: [],
      passed: 0,
      failed: 0,
      manifests: { resources, files: 1, valid: resources, invalid: 0, skipped: 0, failedFiles: 0 },
    },
    findings: [],
    moreFindings: 0,
    graph: {
      controllers: [],
      types: Array.from({ length: types }, (_, i) => `T${i}.example.org`),
      edges: [],
    },
    controllers: [],
    resources: list,
  };
}

describe("the report's graph as the project grows", () => {
  it(`draws each resource up to ${MAX_DRAWN_RESOURCES}, and says nothing`, () => {
    const { view, note } = reportGraph(data(MAX_DRAWN_RESOURCES));
    expect(view?.resources?.[0]?.resources).toHaveLength(MAX_DRAWN_RESOURCES);
    expect(note).toBeUndefined();
  });

  it('draws the types above that, and says so', () => {
    const { view, note } = reportGraph(data(MAX_DRAWN_RESOURCES + 1));
    expect(view?.resources).toBeUndefined();
    expect(view?.types).toEqual(['VMs.example.org']);
    expect(note).toBe(
      '301 resources: the graph shows their types (resources are drawn up to 300); click a type to list its resources, or draw part of it with cosi graph --focus TYPE/ID -o svg.',
    );
  });

  it(`lays nothing out when even the types are more than ${SVG_NODE_LIMIT} nodes`, () => {
    // 10 VMs in their cluster, and the other types as notes: the limit exactly, then one more.
    expect(reportGraph(data(10, SVG_NODE_LIMIT - 10)).view).toBeDefined();
    const { view, note } = reportGraph(data(10, SVG_NODE_LIMIT - 9));
    expect(view).toBeUndefined();
    expect(note).toMatch(/^No graph drawn: it has 1,001 nodes, more than the 1,000 a report/);
    // The page says why there is no graph, and has no empty graph box.
    const html = renderHtmlReport(data(10, SVG_NODE_LIMIT - 9), '', note);
    expect(html).toContain(`<p id="graph-note" class="note">No graph drawn: it has 1,001 nodes`);
    expect(html).not.toContain('id="graph-view"');
    expect(html).not.toContain('No graph: no controller was registered');
  });
});
