/**
 * A resource id too long for its column in the HTML report is cut with an ellipsis: the whole
 * id is the cell's title (shown on hover), as for every other cut cell.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportData, ReportResource } from '../../src/app/report/report-data.js';
import { renderReportHtml } from '../../src/cli/report-file.js';
import { temporaryDirectory } from '../support/temporary-directory.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
let browser: Browser;

const LONG = `web-${'frontend-replica-set-'.repeat(12)}end`;

/** A report of two resources: one with a long id, one failed with a long id. */
function report(): ReportData {
  const resource = (id: string, failed: boolean): ReportResource => ({
    key: `default/VMs.example.org/${id}`,
    namespace: 'default',
    type: 'VMs.example.org',
    id,
    version: 1,
    owner: '',
    phase: 'running',
    spec: {},
    from: [],
    lineage: failed ? 1 : 0,
    ...(failed ? { failure: { controller: 'C', attempts: 3, error: 'boom' } } : {}),
  });
  const resources = [resource(LONG, false), resource(`${LONG}-2`, true)];
  return {
    title: 'long ids',
    verdict: 'passed',
    summary: {
      text: { notes: [], lines: [], total: '0 passed, 0 failed' },
      classes: [],
      passed: 0,
      failed: 0,
      manifests: { resources: 2, files: 1, valid: 2, invalid: 0, skipped: 0, failedFiles: 0 },
    },
    findings: [],
    moreFindings: 0,
    graph: { controllers: [], types: [], edges: [] },
    controllers: [],
    resources,
    lineage: {
      pointers: resources.map((r) => [r.namespace, r.type, r.id] as const),
      files: ['vms.yaml'],
      controllers: [],
      kinds: [],
      versions: [],
      truncated: false,
    },
  };
}

beforeAll(async () => {
  if (HAS_CHROMIUM) {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }
}, 120_000);

afterAll(async () => {
  if (HAS_CHROMIUM) await browser.close();
});

describe.runIf(HAS_CHROMIUM)('a long resource id in the HTML report', { timeout: 60_000 }, () => {
  it('is cut in its column, its whole text the cell title', async () => {
    const file = path.join(await temporaryDirectory('cosi-report-ids-'), 'report.html');
    await writeFile(file, await renderReportHtml(report()));
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    const rows = page.locator('#resource-rows tr[data-key]');
    await expect.poll(() => rows.count()).toBe(2);
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => {
        const td = (tr as unknown as { children: { [i: number]: unknown } }).children[2] as {
          title: string;
          scrollWidth: number;
          clientWidth: number;
        };
        return { title: td.title, cut: td.scrollWidth > td.clientWidth };
      }),
    );
    expect(cells).toEqual([
      { title: LONG, cut: true },
      { title: `${LONG}-2: failed`, cut: true },
    ]);
    await context.close();
  });
});
