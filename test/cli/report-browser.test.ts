import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportData, ReportResource } from '../../src/app/report/report-data.js';
import type { EncodedVersion } from '../../src/app/report/report-lineage.js';
import { renderReportHtml } from '../../src/cli/report-file.js';
import { cli, REPO } from './run-cli.js';

/** Debian's chromium, which .ci/run installs; playwright-core drives it and downloads nothing. */
const CHROMIUM = '/usr/bin/chromium';
/** Screenshots and the reports they show, kept for a person to look at (gitignored). */
const ARTIFACTS = path.join(REPO, 'test-artifacts/report');
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const HAS_CHROMIUM = existsSync(CHROMIUM);
let browser: Browser;
const passing = path.join(ARTIFACTS, 'vm-network.html');
const failing = path.join(ARTIFACTS, 'several-problems.html');
const large = path.join(ARTIFACTS, 'ten-thousand.html');
const partlyInvalid = path.join(ARTIFACTS, 'partly-invalid.html');

/** A page of the report, with every console error, page error and non-file request it makes. */
async function openReport(
  file: string,
  options: { javaScriptEnabled?: boolean; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 1000 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href);
  return { page, errors, requests };
}

/** The page's `getComputedStyle` (the tests are compiled without the DOM's types). */
type StyleOf = { getComputedStyle(e: unknown): Record<string, string> };

/** The few members of the page's document a test reads (compiled without the DOM's types). */
interface ElementLike {
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
  getAttribute(name: string): string | null;
  readonly classList: { contains(name: string): boolean };
  contains(other: unknown): boolean;
}
type DomLike = {
  readonly activeElement: ElementLike | null;
  getElementById(id: string): ElementLike | null;
};

/** axe-core's serious and critical violations on the page, as `rule: nodes`. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(): Promise<{
            violations: { id: string; impact: string; nodes: { target: unknown }[] }[];
          }>;
        };
      }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** The lines of the lineage `cosi explain TYPE ID -o tree` prints for a vm-network resource. */
async function explainLineage(type: string, id: string): Promise<string[]> {
  const r = await cli(['explain', type, id, '-f', 'fixtures/vm-network', '--quiet']);
  expect(r.code).toBe(0);
  const lines = r.stdout.split('\n');
  const start = lines.indexOf('lineage (where it came from)') + 1;
  expect(start).toBeGreaterThan(0);
  const end = lines.indexOf('', start);
  return lines.slice(start, end).map((l) => l.slice(2));
}

/** The lines of the lineage tree the details show. */
async function lineageLines(page: Page): Promise<string[]> {
  return page.locator('#details .lineage-tree .lineage-line').allTextContents();
}

/** Report data of `count` resources in one type, each derived from the one before. */
function manyResources(count: number): ReportData {
  const resources: ReportResource[] = [];
  for (let i = 0; i < count; i++) {
    const id = `vm-${String(i).padStart(5, '0')}`;
    resources.push({
      key: `default/VMs.example.org/${id}`,
      namespace: 'default',
      type: 'VMs.example.org',
      id,
      version: 1,
      owner: i === 0 ? '' : 'Copier',
      phase: 'running',
      spec: { cpus: 2, image: 'debian' },
      from: i === 0 ? [] : [[i - 1, 'primary']],
      lineage: i,
    });
  }
  // Version i of vm-i was written by Copier from vm-(i-1); vm-00000 is the manifest's.
  const versions: EncodedVersion[] = resources.map((_, i) =>
    i === 0 ? [0, 1, [1, 0, 2, 1], []] : [i, 1, [2, 0, i], [0, i - 1]],
  );
  return {
    title: 'synthetic',
    verdict: 'passed',
    summary: {
      text: { notes: [], lines: [], total: '0 passed, 0 failed' },
      classes: [],
      passed: 0,
      failed: 0,
      manifests: { resources: 1, files: 1, valid: 1, invalid: 0, skipped: 0, failedFiles: 0 },
    },
    findings: [],
    moreFindings: 0,
    graph: { controllers: [], types: [], edges: [] },
    controllers: [],
    resources,
    lineage: {
      pointers: resources.map((r) => [r.namespace, r.type, r.id] as const),
      files: ['vms.yaml'],
      controllers: ['Copier'],
      kinds: ['primary'],
      versions,
      truncated: false,
    },
  };
}

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  const ok = await cli(['report', '-f', 'fixtures/vm-network', '-o', passing, '--quiet']);
  expect(ok.stderr).toBe('');
  expect(ok.code).toBe(0);
  const bad = await cli(['check', '-f', 'fixtures/invalid/several-problems', '--report', failing]);
  expect(bad.code).toBe(1);
  const partly = await cli([
    'report',
    '-f',
    'fixtures/cli/partly-invalid',
    '-o',
    partlyInvalid,
    '--quiet',
  ]);
  expect(partly.code).toBe(1);
  // As cosi report renders it: above 300 resources, the graph draws their type.
  await writeFile(large, await renderReportHtml(manyResources(10_000)));
  if (!HAS_CHROMIUM) return;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  if (HAS_CHROMIUM) await browser.close();
});

describe.runIf(HAS_CHROMIUM)('the HTML report in a real browser', { timeout: 60_000 }, () => {
  it('loads with no console error and no request beyond the file', async () => {
    const { page, errors, requests } = await openReport(passing);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('13 of 13 resources');
    expect(await page.locator('#verdict').textContent()).toBe('Passed');
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    // The run's timeline: every reconcile of the recorded run, counted as the summary counts
    // them, and the queue controllers' mappings of changed inputs apart, each row saying so.
    const summary = (await page.locator('.summary').textContent()) ?? '';
    expect(summary).toContain('converged: 1 round, 8 reconciles,');
    expect(await page.locator('#timeline-title').textContent()).toBe(
      'Run timeline: 8 reconciles, 7 mappings',
    );
    await expect.poll(() => page.locator('#timeline-rows tr.mapping').count()).toBe(7);
    const mapped = await page
      .locator('#timeline-rows tr.mapping td:nth-child(4)')
      .allTextContents();
    expect(mapped.every((t) => t.startsWith('mapping default/'))).toBe(true);
    expect(await page.locator('#timeline-rows').textContent()).toContain('PlacementController');
    await page.context().close();
  });

  it('shows the resource a graph node stands for, with its lineage, when it is clicked', async () => {
    const { page } = await openReport(passing);
    await page
      .locator('#graph-view g.node', {
        has: page.locator('title', {
          hasText: /^resource:default\/Placements\.example\.org\/web-1$/,
        }),
      })
      .click();
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('Placements.example.org default/web-1');
    const details = (await page.locator('#details').textContent()) ?? '';
    expect(details).toMatch(/written byPlacementController reconcile #\d+/);
    // Its lineage, line for line as `cosi explain` prints it: the VM it places (primary input,
    // back through the finalizer write to the VM's manifest line) and the host it chose.
    const explained = await explainLineage('placement', 'web-1');
    expect(explained.join('\n')).toContain('└─ mapped: Hosts.example.org(default/node-a)@1');
    expect(await lineageLines(page)).toEqual(explained);
    // A version in the tree links to its resource, whose own lineage is explain's too.
    await page.locator('#details .lineage-tree button', { hasText: /^Hosts/ }).click();
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('Hosts.example.org default/node-a');
    expect(await lineageLines(page)).toEqual(await explainLineage('host', 'node-a'));
    await page
      .locator('#graph-view g.node', {
        has: page.locator('title', {
          hasText: /^resource:default\/Placements\.example\.org\/web-1$/,
        }),
      })
      .click();
    await page.screenshot({ path: path.join(ARTIFACTS, 'vm-network.png'), fullPage: true });
    const png = await readFile(path.join(ARTIFACTS, 'vm-network.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    await page
      .locator('#graph-view g.node', {
        has: page.locator('title', { hasText: /^controller:PlacementController$/ }),
      })
      .click();
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('controller PlacementController');
    expect(await page.locator('#details').textContent()).toContain(
      'primary default/VMs.example.org',
    );
    await page.context().close();
  });

  it("lists exactly a clicked type's resources, or its namespace's, not those whose names contain it", async () => {
    const demo = path.join(ARTIFACTS, 'graph-demo.html');
    const made = await cli(['report', '-f', 'fixtures/graph-demo', '-o', demo, '--quiet']);
    expect(made.code, made.stderr).toBe(0);
    const { page, errors } = await openReport(demo);
    const cluster = (title: RegExp) =>
      page
        .locator('#graph-view g.cluster', { has: page.locator('title', { hasText: title }) })
        .locator('text')
        .first();
    // Configs is a part of NetworkConfigs: a search for it would list both.
    await cluster(/^cluster_Configs\.demo\.example\.org$/).click();
    await expect
      .poll(() => page.locator('#shown').textContent())
      .toBe('1 of 12 resources (type Configs.demo.example.org)');
    const types = await page
      .locator('#resource-rows tr[data-key] td:nth-child(2)')
      .allTextContents();
    expect(types).toEqual(['Configs.demo.example.org']);
    // A namespace's box within a type's.
    await cluster(/^cluster_VMs\.demo\.example\.org\/default$/).click();
    await expect
      .poll(() => page.locator('#shown').textContent())
      .toBe('2 of 12 resources (type VMs.demo.example.org in default)');
    expect(await page.locator('#details-title').textContent()).toBe(
      'type VMs.demo.example.org in default',
    );
    // Typing a search lists by the search again.
    await page.locator('#search').fill('db-1');
    await expect.poll(() => page.locator('#shown').textContent()).toMatch(/^\d+ of 12 resources$/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('pans and zooms the focused graph from the keyboard, and lets Tab skip its nodes', async () => {
    const { page, errors } = await openReport(passing);
    const svg = page.locator('#graph-view svg');
    const viewBox = async () => (await svg.getAttribute('viewBox'))?.split(' ').map(Number) ?? [];
    await page.locator('#graph-view').focus();
    const start = await viewBox();
    await page.keyboard.press('ArrowRight');
    const panned = await viewBox();
    expect(panned[0]).toBeCloseTo((start[0] ?? 0) + 0.1 * (start[2] ?? 0), 3);
    expect(panned.slice(1)).toEqual(start.slice(1));
    await page.keyboard.press('+');
    expect((await viewBox())[2]).toBeCloseTo((start[2] ?? 0) * 0.8, 3);
    await page.keyboard.press('-');
    await page.keyboard.press('0');
    const whole = /<svg [^>]*viewBox="([^"]+)"/.exec(await readFile(passing, 'utf8'))?.[1];
    expect(await viewBox()).toEqual(whole?.split(' ').map(Number));
    // The skip link, first after the graph's heading, leads past every node to the resources.
    await page.locator('#graph-title').evaluate((h) => {
      (h as unknown as { tabIndex: number; focus(): void }).tabIndex = -1;
      (h as unknown as { focus(): void }).focus();
    });
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.className')).toBe('skip');
    expect(await page.locator('a.skip').isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('search');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('scrolls the page with the wheel over the graph, and zooms the graph with Ctrl and the wheel', async () => {
    const { page, errors } = await openReport(passing);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('13 of 13 resources');
    const svg = page.locator('#graph-view svg');
    const box = await page.locator('#graph-view').boundingBox();
    expect(box).toBeTruthy();
    if (!box) return;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const start = await svg.getAttribute('viewBox');
    const top = Number(await page.evaluate('window.scrollY'));
    await page.mouse.wheel(0, 300);
    // The page scrolls on, as it does anywhere else; the drawing stays as it was.
    await expect
      .poll(async () => Number(await page.evaluate('window.scrollY')))
      .toBeGreaterThan(top);
    expect(await svg.getAttribute('viewBox')).toBe(start);
    // With Ctrl held (as a touchpad's pinch comes), the wheel zooms the graph, not the page.
    const scrolled = Number(await page.evaluate('window.scrollY'));
    const width = Number(start?.split(' ')[2]);
    const under = await page.locator('#graph-view').boundingBox();
    expect(under).toBeTruthy();
    if (!under) return;
    await page.mouse.move(under.x + under.width / 2, under.y + under.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await expect
      .poll(async () => Number((await svg.getAttribute('viewBox'))?.split(' ')[2]))
      .toBeCloseTo(width * 0.8, 3);
    expect(Number(await page.evaluate('window.scrollY'))).toBe(scrolled);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('lets Tab walk the resource table past the rows first drawn, and out of it, never losing focus', async () => {
    // What has the focus: the page itself (`BODY`), or an element's text.
    const focused = (page: Page) =>
      page.evaluate<string>(
        'document.activeElement === null || document.activeElement === document.body ? "BODY" : (document.activeElement.textContent || document.activeElement.tagName)',
      );
    // 10,000 rows, of which about 40 are in the page at a time.
    const large10k = await openReport(large);
    await expect
      .poll(() => large10k.page.locator('#shown').textContent())
      .toBe('10000 of 10000 resources');
    await large10k.page.locator('#search').focus();
    const walked: string[] = [];
    for (let i = 0; i < 80; i++) {
      await large10k.page.keyboard.press('Tab');
      walked.push(await focused(large10k.page));
    }
    expect(walked).not.toContain('BODY');
    const ids = walked.filter((t) => /^vm-\d{5}$/.test(t));
    expect(ids.slice(0, 3)).toEqual(['vm-00000', 'vm-00001', 'vm-00002']);
    expect(ids.at(-1)).toBe(`vm-${String(ids.length - 1).padStart(5, '0')}`);
    expect(ids.length).toBeGreaterThan(60);
    await large10k.page.context().close();
    // 13 rows: after the last, Tab leaves the table for the timeline, and does not start it again.
    const { page } = await openReport(passing);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('13 of 13 resources');
    await page.locator('#search').focus();
    const after: string[] = [];
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      after.push(await focused(page));
    }
    expect(after, after.join(' ')).not.toContain('BODY');
    // The table's scroll box first (it scrolls by keyboard), then each row's id.
    expect(after[0]?.trim()).toMatch(/^NamespaceTypeID/);
    expect(after.slice(1, 14)).toEqual([
      'node-a',
      'node-b',
      'node-a',
      'node-b',
      'db-1',
      'web-1',
      'web-2',
      'db-1',
      'web-1',
      'web-2',
      'db-1',
      'web-1',
      'web-2',
    ]);
    expect(after[14]?.trim()).toMatch(/^#Virtual time/);
    await page.context().close();
  });

  it('marks the controller that kept failing and the resource it gave up on, in the graph, the table and the details', async () => {
    const file = path.join(ARTIFACTS, 'failing-controller.html');
    const made = await cli([
      'report',
      '-f',
      'fixtures/cli/failing-controller',
      '-o',
      file,
      '--quiet',
    ]);
    expect(made.code, made.stderr).toBe(1);
    const { page, errors } = await openReport(file);
    expect(await page.locator('#verdict').textContent()).toBe('Failed');
    expect(await page.locator('#failures').textContent()).toContain(
      'EchoController gave up on default/Counters.test.cosi.dev/start after 10 attempts: cannot echo start',
    );
    const failed = await page.locator('#graph-view g.node.failed title').allTextContents();
    expect(failed.sort()).toEqual([
      'controller:EchoController',
      'resource:default/Counters.test.cosi.dev/start',
    ]);
    // Drawn in the error colour, and named so.
    const stroke = await page
      .locator('#graph-view g.node.failed path, #graph-view g.node.failed polygon')
      .first()
      .evaluate((e) => (globalThis as unknown as StyleOf).getComputedStyle(e).stroke);
    expect(stroke).toBe('rgb(179, 23, 31)');
    expect(
      await page.locator('#graph-view g.node.failed').first().getAttribute('aria-label'),
    ).toMatch(/, failed$/);
    await expect.poll(() => page.locator('#resource-rows tr.failed').count()).toBe(1);
    expect(await page.locator('#resource-rows tr.failed .failed-mark').textContent()).toBe(
      'failed',
    );
    await page
      .locator('#graph-view g.node.failed', {
        has: page.locator('title', { hasText: /^resource:/ }),
      })
      .click();
    await expect
      .poll(() => page.locator('#details .failure-note').textContent())
      .toBe(
        'failed: EchoController gave up on it after 10 attempts: cannot echo start: one is a lonely number',
      );
    await page.screenshot({ path: path.join(ARTIFACTS, 'failing-controller.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('prints every resource, every reconcile and the whole graph, without the controls', async () => {
    const { page, errors } = await openReport(passing);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('13 of 13 resources');
    const heading = (await page.locator('#timeline-title').textContent()) ?? '';
    // Each reconcile and each mapping is a row.
    const rows = [...heading.matchAll(/(\d+) (?:reconciles|mappings)/g)]
      .map((m) => Number(m[1]))
      .reduce((a, b) => a + b, 0);
    expect(rows).toBe(15);
    const svg = page.locator('#graph-view svg');
    const viewBox = async () => (await svg.getAttribute('viewBox'))?.split(' ').map(Number);
    const home = await viewBox();
    await page.locator('#zoom-in').click();
    expect(await viewBox()).not.toEqual(home);
    await page.emulateMedia({ media: 'print' });
    // Every row is in the page and none is cut off by a scroll box.
    await expect.poll(() => page.locator('#timeline-rows tr:not(.spacer)').count()).toBe(rows);
    expect(await page.locator('#resource-rows tr[data-key]').count()).toBe(13);
    for (const box of ['#resource-scroll', '#timeline-scroll']) {
      const [scroll, client] = await page.locator(box).evaluate((e) => {
        const box = e as unknown as { scrollHeight: number; clientHeight: number };
        return [box.scrollHeight, box.clientHeight];
      });
      expect(scroll, box).toBeLessThanOrEqual(client + 1);
    }
    expect(await viewBox()).toEqual(home);
    for (const control of ['#zoom-in', '#zoom-reset', '#search']) {
      expect(await page.locator(control).isVisible(), control).toBe(false);
    }
    // Back on screen: the zoom it had.
    await page.emulateMedia({ media: 'screen' });
    await expect.poll(viewBox).not.toEqual(home);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('puts all of a long table in the page while it is printed to PDF, and only the rows in view after', async () => {
    const { page, errors } = await openReport(large);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('10000 of 10000 resources');
    await page.locator('#search').fill('vm-000');
    await expect.poll(() => page.locator('#shown').textContent()).toBe('100 of 10000 resources');
    // What the page holds when printing starts, read after the report's own beforeprint.
    await page.evaluate(
      "addEventListener('beforeprint', () => { window.printedRows = document.querySelectorAll('#resource-rows tr[data-key]').length; })",
    );
    expect(await page.locator('#resource-rows tr[data-key]').count()).toBeLessThan(60);
    await page.pdf({ path: path.join(ARTIFACTS, 'ten-thousand-filtered.pdf') });
    expect(await page.evaluate('window.printedRows')).toBe(100);
    await expect.poll(() => page.locator('#resource-rows tr[data-key]').count()).toBeLessThan(60);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows the resource of a graph node whose id holds a backslash, an entity or a quote, and draws its id as it is', async () => {
    const ids = ['a\\b', 'a&amp;b', 'a&b', 'x\\"];evil[label="pwn', 'end\\'];
    const project = path.join(ARTIFACTS, 'odd-ids');
    await mkdir(project, { recursive: true });
    const documents = ids.map(
      (id) => `metadata:\n  type: Things.example.org\n  id: ${JSON.stringify(id)}\nspec: {}\n`,
    );
    await writeFile(
      path.join(project, 'things.yaml'),
      [
        'metadata:\n  type: ResourceDefinitions.meta.cosi.dev\n  id: things.example.org\nspec:\n  type: Things.example.org\n',
        ...documents,
      ].join('---\n'),
    );
    const file = path.join(ARTIFACTS, 'odd-ids.html');
    const made = await cli(['report', '-f', project, '-o', file, '--quiet']);
    expect(made.code, made.stderr).toBe(0);
    const { page, errors } = await openReport(file);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('5 of 5 resources');
    const resources = page.locator('#graph-view g.node[aria-label$="(resource)"]');
    expect(await resources.count()).toBe(ids.length);
    const shown: string[] = [];
    const opened: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      const node = resources.nth(i);
      shown.push((await node.locator('text').allTextContents()).join(''));
      await page
        .locator('#details')
        .evaluate((d) => (d as unknown as { replaceChildren(): void }).replaceChildren());
      await node.click();
      await expect.poll(() => page.locator('#details-title').count()).toBe(1);
      opened.push((await page.locator('#details-title').textContent()) ?? '');
    }
    expect(opened.sort()).toEqual(ids.map((id) => `Things.example.org default/${id}`).sort());
    expect(shown.sort()).toEqual(ids.map((id) => `default/${id}`).sort());
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('follows a dark colour scheme, the graph included, and stays light in a light one', async () => {
    const colours = async (page: Page) =>
      page.evaluate(`(() => {
        const style = (selector) => getComputedStyle(document.querySelector(selector));
        return {
          page: style('html').backgroundColor,
          text: style('body').color,
          graph: style('#graph-view svg g.graph > polygon').fill,
          node: style('#graph-view g.node text').fill,
          edge: style('#graph-view g.edge path').stroke,
        };
      })()`);
    const dark = await openReport(passing, { colorScheme: 'dark' });
    await expect.poll(() => dark.page.locator('#shown').textContent()).toBe('13 of 13 resources');
    expect(await colours(dark.page)).toEqual({
      page: 'rgb(13, 17, 23)',
      text: 'rgb(230, 237, 243)',
      graph: 'rgb(13, 17, 23)',
      node: 'rgb(230, 237, 243)',
      edge: 'rgb(230, 237, 243)',
    });
    expect(await seriousViolations(dark.page)).toEqual([]);
    await dark.page.screenshot({
      path: path.join(ARTIFACTS, 'vm-network-dark.png'),
      fullPage: true,
    });
    await dark.page.context().close();
    // Findings (the marked source line) read in the dark too.
    const findings = await openReport(failing, { colorScheme: 'dark' });
    expect(await seriousViolations(findings.page)).toEqual([]);
    await findings.page.context().close();
    const light = await openReport(passing, { colorScheme: 'light' });
    expect(await colours(light.page)).toEqual({
      page: 'rgb(255, 255, 255)',
      text: 'rgb(31, 35, 40)',
      graph: 'rgb(255, 255, 255)',
      node: 'rgb(31, 35, 40)',
      edge: 'rgb(31, 35, 40)',
    });
    await light.page.context().close();
  });

  it('names each graph node for a screen reader by what it stands for: a resource with its type, a type as a type', async () => {
    const { page } = await openReport(passing);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('13 of 13 resources');
    const nodes = await page.locator('#graph-view g.node, #graph-view g.cluster').all();
    const names = await Promise.all(
      nodes.map(async (n) => (await n.getAttribute('aria-label')) ?? ''),
    );
    expect(names).toContain('HostStatuses.example.org (type)');
    expect(names).toContain('PlacementController (controller)');
    expect(names.filter((n) => n.includes('db-1')).sort()).toEqual([
      'NetworkConfigs.example.org default/db-1 (resource)',
      'Placements.example.org default/db-1 (resource)',
      'VMs.example.org default/db-1 (resource)',
    ]);
    // No two nodes share a name.
    expect(new Set(names).size).toBe(names.length);
    await page.context().close();
  });

  it("draws a kro RGD's resources in render order and its status write, as cosi graph does, and a click on them opens the controller", async () => {
    const file = path.join(ARTIFACTS, 'kro-webapp.html');
    const r = await cli(['report', '-f', 'fixtures/kro-webapp', '-o', file, '--quiet']);
    expect(r.code).toBe(0);
    const { page, errors } = await openReport(file);
    // Its seven resources, and the RGD that defines WebApps, a row as the summary counts it.
    await expect.poll(() => page.locator('#shown').textContent()).toBe('8 of 8 resources');
    const names = await Promise.all(
      (await page.locator('#graph-view g.node, #graph-view g.cluster').all()).map(
        async (n) => (await n.getAttribute('aria-label')) ?? '',
      ),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'ResourceGraph(webapp.kro.run): resources in render order',
        // All a template's node shows, its kind and includeWhen too.
        'deployment Deployments.apps (template of ResourceGraph(webapp.kro.run))',
        'service Services.core (template of ResourceGraph(webapp.kro.run))',
        'ingress Ingresses.networking.k8s.io (includeWhen) (template of ResourceGraph(webapp.kro.run))',
      ]),
    );
    // axe: a name that leaves out the node's visible text is label-content-name-mismatch.
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.locator('#graph-view g.edge text', { hasText: /^status$/ }).count()).toBe(1);
    await page
      .locator(
        '#graph-view g.node[aria-label="service Services.core (template of ResourceGraph(webapp.kro.run))"]',
      )
      .click();
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('controller ResourceGraph(webapp.kro.run)');
    const details = await page.locator('#details li').allTextContents();
    expect(details).toContain('status WebApps.kro.run (of the instances it reads)');
    expect(details).not.toContain('shared WebApps.kro.run');
    expect(details).toEqual(
      expect.arrayContaining([
        'deployment Deployments.apps',
        'service Services.core (after deployment)',
        'ingress Ingresses.networking.k8s.io (after service; includeWhen)',
      ]),
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says in a sentence that nothing was reconciled, with no empty timeline table, when no controller ran', async () => {
    const dir = path.join(ARTIFACTS, 'no-controllers');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'cm.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: base\ndata:\n  a: "1"\n',
    );
    const file = path.join(ARTIFACTS, 'no-controllers.html');
    const r = await cli(['report', '-f', dir, '-o', file, '--quiet']);
    expect(r.code).toBe(0);
    const { page, errors } = await openReport(file);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('1 of 1 resources');
    expect(await page.locator('#timeline-title').textContent()).toBe('Run timeline: 0 reconciles');
    expect(await page.locator('#timeline-empty').textContent()).toBe(
      'No controller reconciled anything in this run.',
    );
    expect(await page.locator('#timeline-scroll').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens a graph of a couple of hundred resources at a size its labels read at, and Reset shows it whole', async () => {
    const project = path.join(ARTIFACTS, 'sixty-vms');
    await cp('fixtures/vm-network', project, { recursive: true });
    const vms = Array.from(
      { length: 60 },
      (_, i) =>
        `---\nmetadata:\n  type: vm\n  id: gen-${i}\nspec:\n  cpus: 1\n  image: debian\n  host: node-${i % 2 === 0 ? 'a' : 'b'}\n`,
    );
    await writeFile(
      path.join(project, 'vms.yaml'),
      (await readFile('fixtures/vm-network/vms.yaml', 'utf8')) + vms.join(''),
    );
    const file = path.join(ARTIFACTS, 'sixty-vms.html');
    const made = await cli(['report', '-f', project, '-o', file, '--quiet']);
    expect(made.code, made.stderr).toBe(0);
    const { page, errors } = await openReport(file);
    await expect.poll(() => page.locator('#graph-part').isVisible()).toBe(true);
    // A label's height on screen: 14pt text drawn at 0.6 or more.
    const labelHeight = async () =>
      (await page.locator('#graph-view g.node text').first().boundingBox())?.height ?? 0;
    expect(await labelHeight()).toBeGreaterThanOrEqual(9);
    await page.locator('#graph-view').screenshot({ path: path.join(ARTIFACTS, 'sixty-vms.png') });
    // Reset: the whole drawing, as tall as it is.
    const svg = page.locator('#graph-view svg');
    await page.locator('#zoom-reset').click();
    const whole = (await svg.getAttribute('viewBox'))?.split(' ').map(Number);
    const drawn = /<svg [^>]*viewBox="([^"]+)"/.exec(await readFile(file, 'utf8'))?.[1];
    expect(whole).toEqual(drawn?.split(' ').map(Number));
    expect(await labelHeight()).toBeLessThan(9);
    expect(errors).toEqual([]);
    await page.context().close();
    // A small graph opens whole, and says nothing.
    const small = await openReport(passing);
    await expect.poll(() => small.page.locator('#shown').textContent()).toBe('13 of 13 resources');
    expect(await small.page.locator('#graph-part').isVisible()).toBe(false);
    await small.page.context().close();
  });

  it('opens a tall graph at the top of its boxes, not on the lineage edges Graphviz bends up over them', async () => {
    // graph-demo's lineage runs between resources of one column: 59 VMs, 296 resources drawn,
    // the drawing's first 1,900 points were curves, and the graph opened on no node.
    const project = path.join(ARTIFACTS, 'demo-59-vms');
    await cp('fixtures/graph-demo', project, { recursive: true });
    const vms = Array.from(
      { length: 59 },
      (_, i) => `---\nmetadata:\n  type: vm\n  id: vm-${i}\nspec:\n  image: debian\n`,
    );
    await writeFile(path.join(project, 'vms.yaml'), vms.join(''));
    const file = path.join(ARTIFACTS, 'demo-59-vms.html');
    const made = await cli(['report', '-f', project, '-o', file, '--quiet']);
    expect(made.code, made.stderr).toBe(0);
    const { page, errors } = await openReport(file);
    await expect.poll(() => page.locator('#graph-part').isVisible()).toBe(true);
    const nodesInView = () =>
      page.evaluate(() => {
        const doc = (
          globalThis as unknown as {
            document: {
              getElementById(id: string): ElementLike | null;
              querySelectorAll(s: string): ArrayLike<ElementLike>;
            };
          }
        ).document;
        const v = doc.getElementById('graph-view')?.getBoundingClientRect();
        if (!v) return 0;
        return Array.from(doc.querySelectorAll('#graph-view g.node')).filter((g) => {
          const r = g.getBoundingClientRect();
          return r.bottom > v.top && r.top < v.bottom && r.right > v.left && r.left < v.right;
        }).length;
      });
    expect(await nodesInView()).toBeGreaterThan(3);
    await page.locator('#graph-view').screenshot({ path: path.join(ARTIFACTS, 'demo-59-vms.png') });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens a small graph at the size Graphviz draws it, centred, not blown up to fill the box', async () => {
    const file = path.join(ARTIFACTS, 'minimal.html');
    const made = await cli(['report', '-f', 'fixtures/minimal', '-o', file, '--quiet']);
    expect(made.code, made.stderr).toBe(0);
    const { page, errors } = await openReport(file);
    await expect.poll(() => page.locator('#shown').textContent()).toMatch(/ resources?$/);
    // 14pt labels at 96 px to the inch: about 19 px; fitted to the 30rem box, 40 px and more.
    const labelHeight = async () =>
      (await page.locator('#graph-view g.node text').first().boundingBox())?.height ?? 0;
    expect(await labelHeight()).toBeGreaterThan(12);
    expect(await labelHeight()).toBeLessThan(24);
    // Centred: as much room left of the drawing as right of it, and above as below.
    const margins = async () => {
      const box = await page.locator('#graph-view').boundingBox();
      const drawing = await page.locator('#graph-view g.graph').boundingBox();
      if (!box || !drawing) return [];
      return [
        drawing.x - box.x - (box.x + box.width - drawing.x - drawing.width),
        drawing.y - box.y - (box.y + box.height - drawing.y - drawing.height),
      ].map((d) => Math.abs(d) < 4);
    };
    expect(await margins()).toEqual([true, true]);
    // Reset comes back to it, not to the blown-up fit.
    await page.locator('#zoom-in').click();
    await page.locator('#zoom-reset').click();
    expect(await labelHeight()).toBeLessThan(24);
    expect(await margins()).toEqual([true, true]);
    expect(await page.locator('#graph-part').isVisible()).toBe(false);
    // Printed, at that size too, not stretched to the page's width.
    await page.emulateMedia({ media: 'print' });
    await expect.poll(labelHeight).toBeLessThan(24);
    expect(await labelHeight()).toBeGreaterThan(12);
    await page.emulateMedia({ media: 'screen' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('brings a graph node reached with Tab, or chosen in the table, into the part of the graph shown', async () => {
    const project = path.join(ARTIFACTS, 'forty-vms');
    await cp('fixtures/vm-network', project, { recursive: true });
    const vms = Array.from(
      { length: 40 },
      (_, i) =>
        `---\nmetadata:\n  type: vm\n  id: gen-${i}\nspec:\n  cpus: 1\n  image: debian\n  host: node-a\n`,
    );
    await writeFile(
      path.join(project, 'vms.yaml'),
      (await readFile('fixtures/vm-network/vms.yaml', 'utf8')) + vms.join(''),
    );
    const file = path.join(ARTIFACTS, 'forty-vms.html');
    const made = await cli(['report', '-f', project, '-o', file, '--quiet']);
    expect(made.code, made.stderr).toBe(0);
    const { page, errors } = await openReport(file);
    await expect.poll(() => page.locator('#graph-part').isVisible()).toBe(true);
    // Where the focused element is drawn, against the graph's box: a node wholly inside it; a
    // type's box taller than the graph's, its top left corner.
    const focused = () =>
      page.evaluate(() => {
        const doc = (globalThis as unknown as { document: DomLike }).document;
        const g = doc.activeElement;
        const view = doc.getElementById('graph-view');
        if (!g || !view || !view.contains(g)) return null;
        const r = g.getBoundingClientRect();
        const v = view.getBoundingClientRect();
        const inX = (x: number) => x >= v.left - 1 && x <= v.right + 1;
        const inY = (y: number) => y >= v.top - 1 && y <= v.bottom + 1;
        const shown = g.classList.contains('cluster')
          ? inX(r.left + 1) && inY(r.top + 1)
          : inX(r.left) && inX(r.right) && inY(r.top) && inY(r.bottom);
        return { label: g.getAttribute('aria-label'), shown };
      });
    await page.locator('#graph-view').focus();
    const unseen: string[] = [];
    let reached = 0;
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const at = await focused();
      if (at === null) break;
      reached++;
      if (!at.shown) unseen.push(at.label ?? '?');
    }
    expect(reached).toBe(40);
    expect(unseen).toEqual([]);
    // A resource chosen in the table is marked in the graph where it is in view.
    await page.locator('#search').fill('gen-37');
    await expect.poll(() => page.locator('#shown').textContent()).toBe('3 of 133 resources');
    await page
      .locator('#resource-rows tr[data-key="default/NetworkConfigs.example.org/gen-37"] button')
      .click();
    const selected = page.locator('#graph-view g.selected');
    expect(await selected.getAttribute('aria-label')).toBe(
      'NetworkConfigs.example.org default/gen-37 (resource)',
    );
    const box = await page.locator('#graph-view').boundingBox();
    const node = await selected.boundingBox();
    expect(box && node).toBeTruthy();
    if (box && node) {
      expect(node.x).toBeGreaterThanOrEqual(box.x);
      expect(node.y).toBeGreaterThanOrEqual(box.y);
      expect(node.x + node.width).toBeLessThanOrEqual(box.x + box.width);
      expect(node.y + node.height).toBeLessThanOrEqual(box.y + box.height);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('marks the type of a resource chosen in the table when the graph draws types, not resources', async () => {
    const { page, errors } = await openReport(large);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('10000 of 10000 resources');
    await page.locator('#search').fill('vm-00003');
    await expect.poll(() => page.locator('#shown').textContent()).toBe('1 of 10000 resources');
    await page.locator('#resource-rows button', { hasText: 'vm-00003' }).click();
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('VMs.example.org default/vm-00003');
    expect(await page.locator('#graph-view g.selected').getAttribute('aria-label')).toBe(
      'VMs.example.org (type)',
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("links, under the verdict, to the page's parts, which many findings put screens down", async () => {
    const { page, errors } = await openReport(failing);
    const contents = page.locator('nav.contents a');
    expect(await contents.allTextContents()).toEqual([
      'Findings (6)',
      'Dependency graph',
      'Resources (0)',
    ]);
    const top = (id: string) =>
      page.evaluate(`document.getElementById('${id}').getBoundingClientRect().top`);
    // Each part below the first screen (the window is 1,000 px tall) until its link is
    // followed; then in the window (as high as the end of the page lets it).
    for (const [text, id] of [
      ['Dependency graph', 'graph-title'],
      ['Resources (0)', 'resources-title'],
    ] as const) {
      await page.evaluate('window.scrollTo(0, 0)');
      expect(Number(await top(id))).toBeGreaterThan(1000);
      await contents.filter({ hasText: text }).click();
      await expect.poll(async () => Number(await top(id))).toBeLessThan(1000);
      expect(Number(await top(id))).toBeGreaterThanOrEqual(0);
    }
    expect(errors).toEqual([]);
    await page.context().close();
    // A recorded run: its timeline too.
    const recorded = await openReport(passing);
    expect(await recorded.page.locator('nav.contents a').allTextContents()).toEqual([
      'Findings (0)',
      'Dependency graph',
      'Resources (13)',
      'Run timeline',
    ]);
    await recorded.page.context().close();
  });

  it('opens at a finding its link names by number', async () => {
    // Forty findings: the thirtieth is screens down the page.
    const data = manyResources(1);
    const findings = Array.from({ length: 40 }, (_, i) => ({
      check: 'manifests' as const,
      name: 'vms.yaml',
      code: 'schema-violation' as const,
      severity: 'error' as const,
      failure: true,
      message: `problem number ${i + 1}`,
      file: 'vms.yaml',
      line: i + 1,
      col: 1,
      pointer: '/spec',
    }));
    const file = path.join(ARTIFACTS, 'forty-findings.html');
    await writeFile(file, await renderReportHtml({ ...data, verdict: 'failed', findings }));
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${pathToFileURL(file).href}#finding-30`);
    const finding = page.locator('#finding-30');
    expect(await finding.textContent()).toContain('problem number 30');
    await expect.poll(async () => Math.abs((await finding.boundingBox())?.y ?? -1)).toBeLessThan(2);
    await context.close();
  });

  it('groups findings by code with their counts, folds a code of many, and filters them by severity and text, from the keyboard', async () => {
    // argo-cd's shape: one schema violation, then many duplicates, then two warnings.
    const data = manyResources(1);
    const finding = (
      code: 'schema-violation' | 'duplicate-resource' | 'large-definition',
      n: number,
    ) => ({
      check: 'manifests' as const,
      name: `vms-${n}.yaml`,
      code,
      severity: code === 'large-definition' ? ('warning' as const) : ('error' as const),
      failure: code !== 'large-definition',
      message: `${code} of vm-${n}`,
      file: `vms-${n}.yaml`,
      line: 4,
      col: 9,
      pointer: '/metadata/name',
    });
    const findings = [
      finding('large-definition', 0),
      finding('schema-violation', 1),
      ...Array.from({ length: 30 }, (_, i) => finding('duplicate-resource', i + 2)),
      finding('large-definition', 32),
    ];
    const file = path.join(ARTIFACTS, 'grouped-findings.html');
    await writeFile(file, await renderReportHtml({ ...data, verdict: 'failed', findings }));
    const { page, errors, requests } = await openReport(file);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await expect.poll(() => page.locator('#findings-shown').textContent()).toBe('33 findings');
    // Failing codes first, each where its first finding is; a code of 30 folded, its count shown.
    const summaries = page.locator('details.finding-group > summary');
    expect(await summaries.allTextContents()).toEqual([
      '1 × schema-violation error',
      '30 × duplicate-resource error',
      '2 × large-definition warning',
    ]);
    const duplicates = page.locator('details[data-code="duplicate-resource"]');
    expect(await duplicates.getAttribute('open')).toBeNull();
    expect(await page.locator('#finding-3').isVisible()).toBe(false);
    // Each keeps its number: the thirty-third is the second warning.
    expect(await page.locator('#finding-33').getAttribute('value')).toBe('33');
    // Enter on the focused summary opens the group.
    await summaries.nth(1).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#finding-3').isVisible()).toBe(true);
    // By severity: the warnings alone.
    await page.locator('#finding-severity').selectOption('warning');
    expect(await page.locator('#findings-shown').textContent()).toBe('2 of 33 findings shown');
    expect(
      await page.locator('details.finding-group:not([hidden]) > summary').allTextContents(),
    ).toEqual(['2 × large-definition warning']);
    // By text, typed: a file's name finds its finding, its group says how many of all.
    await page.locator('#finding-severity').selectOption('');
    await page.locator('#finding-search').focus();
    await page.keyboard.type('vms-17.yaml');
    expect(await page.locator('#findings-shown').textContent()).toBe('1 of 33 findings shown');
    expect(
      await page.locator('details.finding-group:not([hidden]) > summary').allTextContents(),
    ).toEqual(['1 of 30 × duplicate-resource error']);
    expect(await page.locator('#finding-18').isVisible()).toBe(true);
    // Its place is copied as file:line:col.
    await page.locator('#finding-18 button.copy').click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('vms-17.yaml:4:9');
    expect(await page.locator('#finding-18 button.copy').textContent()).toBe('Copied');
    await page.locator('#finding-search').fill('');
    expect(await page.locator('#findings-shown').textContent()).toBe('33 findings');
    await page.locator('#findings-close').click();
    expect(await page.locator('details.finding-group[open]').count()).toBe(0);
    // A link to a finding of a folded group opens the group at it.
    await page.evaluate("location.hash = '#finding-25'");
    await expect.poll(() => page.locator('#finding-25').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.context().close();
  });

  it('prints every finding, the groups folded on screen opened on paper and folded again after', async () => {
    const data = manyResources(1);
    const findings = Array.from({ length: 12 }, (_, i) => ({
      check: 'manifests' as const,
      name: 'vms.yaml',
      code: 'duplicate-resource' as const,
      severity: 'error' as const,
      failure: true,
      message: `duplicate number ${i + 1}`,
      file: 'vms.yaml',
      line: i + 1,
      col: 1,
      pointer: '/metadata/name',
    }));
    const schema = { ...findings[0]!, code: 'schema-violation' as const, message: 'not valid' };
    const file = path.join(ARTIFACTS, 'printed-findings.html');
    await writeFile(
      file,
      await renderReportHtml({ ...data, verdict: 'failed', findings: [schema, ...findings] }),
    );
    const { page, errors } = await openReport(file);
    await expect.poll(() => page.locator('#findings-shown').textContent()).toBe('13 findings');
    const folded = page.locator('details[data-code="duplicate-resource"]');
    expect(await page.locator('#finding-13').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'print' });
    await expect.poll(() => page.locator('#finding-13').isVisible()).toBe(true);
    expect(await page.locator('#findings-tools').isVisible()).toBe(false);
    expect(await page.locator('button.copy').first().isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });
    await expect.poll(() => folded.getAttribute('open')).toBeNull();
    expect(await page.locator('details[data-code="schema-violation"]').getAttribute('open')).toBe(
      '',
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens the resource a finding is about in the details, the table and the graph', async () => {
    // Forty ConfigMaps, and cm-35 defined again in a second file: the duplicate links to the first.
    const dir = path.join(ARTIFACTS, 'duplicate-configmaps');
    await mkdir(dir, { recursive: true });
    const maps = Array.from(
      { length: 40 },
      (_, i) =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${String(i).padStart(2, '0')}\ndata:\n  n: "${i}"\n`,
    );
    await writeFile(path.join(dir, 'a.yaml'), maps.join('---\n'));
    await writeFile(path.join(dir, 'b.yaml'), maps[35] ?? '');
    const file = path.join(ARTIFACTS, 'duplicate-configmaps.html');
    const made = await cli(['report', '-f', dir, '-o', file, '--quiet']);
    expect(made.code).toBe(1);
    const { page, errors } = await openReport(file);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('40 of 40 resources');
    const finding = page.locator('li.finding', {
      has: page.locator('code', { hasText: 'duplicate-resource' }),
    });
    expect(await finding.locator('.place').textContent()).toMatch(
      /duplicate-configmaps\/b\.yaml:4:9$/,
    );
    const link = finding.locator('a.resource-link');
    expect(await link.textContent()).toBe('ConfigMaps.core default/cm-35');
    // Out of the table's view until the link is followed (its rows are drawn as they scroll in).
    expect(await page.locator('tr[data-key="default/ConfigMaps.core/cm-35"]').count()).toBe(0);
    await page.locator('#search').fill('cm-0');
    await link.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('ConfigMaps.core default/cm-35');
    // The details' heading has the focus; the search that hid the row is cleared, the row marked and in view.
    expect(await page.evaluate('document.activeElement.id')).toBe('details-title');
    expect(await page.locator('#search').inputValue()).toBe('');
    const row = page.locator('tr.chosen');
    expect(await row.getAttribute('data-key')).toBe('default/ConfigMaps.core/cm-35');
    expect(await row.getAttribute('aria-current')).toBe('true');
    const inside = await page.evaluate(() => {
      const d = globalThis as unknown as {
        document: DomLike & { querySelector(s: string): ElementLike };
      };
      const box = d.document.getElementById('resource-scroll')!.getBoundingClientRect();
      const r = d.document.querySelector('tr.chosen').getBoundingClientRect();
      return r.top >= box.top && r.bottom <= box.bottom;
    });
    expect(inside).toBe(true);
    // And its node in the graph is selected.
    expect(await page.locator('#graph-view g.node.selected title').allTextContents()).toEqual([
      'resource:default/ConfigMaps.core/cm-35',
    ]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("lists the manifests' CRDs as the summary counts them, and opens the one a finding is about (review report3 1)", async () => {
    // cert-manager's report said "13 valid" above a table of 7 resources: its 6 CRDs were on no
    // row, nor, for a type with no resource, anywhere on the page, and argo-cd's findings about a
    // CRD (duplicate-definition, large-definition) linked to nothing.
    const dir = path.join(ARTIFACTS, 'crd-rows');
    await mkdir(dir, { recursive: true });
    const crd = (kind: string, plural: string): string =>
      [
        'apiVersion: apiextensions.k8s.io/v1',
        'kind: CustomResourceDefinition',
        'metadata:',
        `  name: ${plural}.example.org`,
        'spec:',
        '  group: example.org',
        `  names: { kind: ${kind}, plural: ${plural}, singular: ${kind.toLowerCase()} }`,
        '  scope: Namespaced',
        '  versions:',
        '    - name: v1',
        '      served: true',
        '      storage: true',
        '      schema:',
        '        openAPIV3Schema:',
        '          type: object',
        '          properties:',
        '            spec: { type: object, x-kubernetes-preserve-unknown-fields: true }',
        '',
      ].join('\n');
    await writeFile(path.join(dir, 'gadgets-crd.yaml'), crd('Gadget', 'gadgets'));
    await writeFile(path.join(dir, 'widgets-again.yaml'), crd('Widget', 'widgets'));
    // Read after widgets-again.yaml: the duplicate, whose findings are about the first copy,
    // the one that says so and a warning (a YAML 1.1 boolean, as argo-cd's large-definition).
    await writeFile(
      path.join(dir, 'widgets-crd.yaml'),
      crd('Widget', 'widgets').replace('served: true', 'served: yes'),
    );
    await writeFile(
      path.join(dir, 'widget.yaml'),
      'apiVersion: example.org/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 1\n',
    );
    const file = path.join(ARTIFACTS, 'crd-rows.html');
    const made = await cli(['report', '-f', dir, '-o', file, '--quiet']);
    expect(made.code).toBe(1);
    const { page, errors } = await openReport(file);
    // The summary's valid documents (a Widget and two CRDs) are the table's rows.
    expect(await page.locator('body').textContent()).toContain(
      'manifests: 4 resources in 4 files: 3 valid, 1 invalid',
    );
    await expect.poll(() => page.locator('#shown').textContent()).toBe('3 of 3 resources');
    await page.locator('#search').fill('gadgets');
    await expect.poll(() => page.locator('#shown').textContent()).toBe('1 of 3 resources');
    expect(await page.locator('#resource-rows tr[data-key]').getAttribute('data-key')).toBe(
      'default/CustomResourceDefinitions.apiextensions.k8s.io/gadgets.example.org',
    );
    // The duplicate's finding opens the first copy: what it defines, and where it is written.
    const finding = page.locator('li.finding', {
      has: page.locator('code', { hasText: 'duplicate-definition' }),
    });
    const link = finding.locator('a.resource-link');
    expect(await link.textContent()).toBe(
      'CustomResourceDefinitions.apiextensions.k8s.io widgets.example.org',
    );
    const duplicates = page.locator('li.finding', {
      has: page.locator('.place', { hasText: 'widgets-crd.yaml' }),
    });
    expect(await duplicates.count()).toBeGreaterThan(1);
    expect(await duplicates.locator('a.resource-link').allTextContents()).toEqual(
      Array.from(
        { length: await duplicates.count() },
        () => 'CustomResourceDefinitions.apiextensions.k8s.io widgets.example.org',
      ),
    );
    await link.click();
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('CustomResourceDefinitions.apiextensions.k8s.io widgets.example.org');
    const details = (await page.locator('#details').textContent()) ?? '';
    expect(details).toMatch(/crd-rows\/widgets-again\.yaml:1/);
    expect(details).toContain('it defines the type Widgets.example.org');
    // Named as a resource's details name its type: the row's type, not a kind.
    expect(await page.locator('#details dt').allTextContents()).toEqual([
      'type',
      'name',
      'written by',
      'defines',
    ]);
    expect(await page.locator('tr.chosen').getAttribute('data-key')).toBe(
      'default/CustomResourceDefinitions.apiextensions.k8s.io/widgets.example.org',
    );
    // The graph marks the type's box, and the details list its resources in the table.
    expect(await page.locator('#graph-view g.cluster.selected title').allTextContents()).toEqual([
      'cluster_Widgets.example.org',
    ]);
    await page.locator('#details button', { hasText: 'list its resources' }).click();
    await expect
      .poll(() => page.locator('#shown').textContent())
      .toBe('1 of 3 resources (type Widgets.example.org)');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('filters the resource table as a search is typed', async () => {
    const { page } = await openReport(passing);
    await page.locator('#search').fill('placement');
    await expect.poll(() => page.locator('#shown').textContent()).toBe('3 of 13 resources');
    const types = await page
      .locator('#resource-rows tr[data-key] td:nth-child(2)')
      .allTextContents();
    expect(types).toEqual(Array(3).fill('Placements.example.org'));
    await page.locator('#search').fill('hoststatus node-b');
    await expect.poll(() => page.locator('#resource-rows tr[data-key]').count()).toBe(1);
    await page.locator('#resource-rows button', { hasText: 'node-b' }).click();
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('HostStatuses.example.org default/node-b');
    await page.context().close();
  });

  it('finds a resource by the name the page shows: NAMESPACE/ID as the graph draws it, TYPE(NAMESPACE/ID) as its lineage', async () => {
    const { page } = await openReport(passing);
    const found = async (query: string): Promise<string[]> => {
      await page.locator('#search').fill(query);
      await expect.poll(() => page.locator('#shown').textContent()).toMatch(/ of 13 resources$/);
      return page
        .locator('#resource-rows tr[data-key]')
        .evaluateAll((rows) =>
          rows.map((r) => (r as unknown as { dataset: { key: string } }).dataset.key),
        );
    };
    // The graph's label of vm web-1, of its Placement and NetworkConfig.
    expect(await found('default/web-1')).toEqual([
      'default/NetworkConfigs.example.org/web-1',
      'default/Placements.example.org/web-1',
      'default/VMs.example.org/web-1',
    ]);
    // As the lineage panel (and cosi explain, cosi get) writes a resource, any case.
    expect(await found('VMs.example.org(default/web-1)')).toEqual([
      'default/VMs.example.org/web-1',
    ]);
    expect(await found('placements.example.org(default/db-1)')).toEqual([
      'default/Placements.example.org/db-1',
    ]);
    await page.context().close();
  });

  it('finds a cluster-scoped resource by its name alone, not by the namespace "default" it is kept in', async () => {
    const data = manyResources(4);
    const file = path.join(ARTIFACTS, 'cluster-scoped-search.html');
    await writeFile(
      file,
      await renderReportHtml({
        ...data,
        resources: data.resources.map((r, i) =>
          i < 2 ? { ...r, clusterScoped: true as const } : r,
        ),
      }),
    );
    const { page } = await openReport(file);
    const found = async (query: string): Promise<string[]> => {
      await page.locator('#search').fill(query);
      await expect.poll(() => page.locator('#shown').textContent()).toMatch(/ of 4 resources$/);
      return page.locator('#resource-rows tr[data-key] td:nth-child(3)').allTextContents();
    };
    // The table shows no namespace for them: searching one must not list them.
    expect(await found('default')).toEqual(['vm-00002', 'vm-00003']);
    expect(await found('default/vm-0000')).toEqual(['vm-00002', 'vm-00003']);
    expect(await found('vm-00001')).toEqual(['vm-00001']);
    expect(await found('VMs.example.org(vm-00000)')).toEqual(['vm-00000']);
    await page.context().close();
  });

  it("wraps the details' heading of a resource whose type is one long word within the panel", async () => {
    const type = 'PrometheusRules.monitoring.coreos.com';
    const data = JSON.parse(
      JSON.stringify(manyResources(2)).replaceAll('VMs.example.org', type),
    ) as ReportData;
    const file = path.join(ARTIFACTS, 'long-type.html');
    await writeFile(file, await renderReportHtml(data));
    const { page, errors } = await openReport(file);
    await page.locator('#resource-rows button', { hasText: 'vm-00001' }).click();
    const title = page.locator('#details-title');
    await expect.poll(() => title.textContent()).toBe(`${type} default/vm-00001`);
    // The text wider than the heading's box: what runs past the panel's border.
    const overflow = await title.evaluate((e) => {
      const box = e as unknown as { scrollWidth: number; clientWidth: number };
      return box.scrollWidth - box.clientWidth;
    });
    expect(overflow).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('gives the search box the width of its placeholder, which says what it searches', async () => {
    for (const width of [1280, 800]) {
      const { page } = await openReport(passing);
      await page.setViewportSize({ width, height: 900 });
      const search = page.locator('#search');
      await expect.poll(() => search.isVisible()).toBe(true);
      const room = await search.evaluate((e) => {
        const input = e as unknown as { placeholder: string; clientWidth: number };
        const style = (globalThis as unknown as StyleOf).getComputedStyle(e);
        const canvas = (
          globalThis as unknown as {
            document: { createElement(t: 'canvas'): { getContext(k: '2d'): CanvasText } };
          }
        ).document
          .createElement('canvas')
          .getContext('2d');
        type CanvasText = { font: string; measureText(t: string): { width: number } };
        canvas.font = style.font ?? '';
        const padding = parseFloat(style.paddingLeft ?? '') + parseFloat(style.paddingRight ?? '');
        return input.clientWidth - padding - canvas.measureText(input.placeholder).width;
      });
      expect(room, `at ${width}px`).toBeGreaterThanOrEqual(0);
      await page.context().close();
    }
  });

  it('has no serious accessibility violations, passing or failing', async () => {
    for (const file of [passing, failing, partlyInvalid]) {
      const { page } = await openReport(file);
      expect(await seriousViolations(page), file).toEqual([]);
      await page.context().close();
    }
    // With a resource's details open: its lineage tree and its links.
    {
      const { page } = await openReport(passing);
      await page.locator('#search').fill('placement web-1');
      await page.locator('#resource-rows button', { hasText: 'web-1' }).click();
      await expect.poll(() => page.locator('#details .lineage-line').count()).toBe(4);
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    }
  });

  it('shows the verdict and every finding with its source lines without JavaScript', async () => {
    const { page } = await openReport(failing, { javaScriptEnabled: false });
    expect(await page.locator('#verdict').textContent()).toBe('Failed');
    // What needs the script says so, and its controls stay hidden.
    expect(await page.locator('#resources-ui').isVisible()).toBe(false);
    const findings = page.locator('li.finding');
    expect(await findings.count()).toBeGreaterThanOrEqual(3);
    const first = findings.first();
    expect(await first.locator('.place').textContent()).toBe(
      'fixtures/invalid/several-problems/vms.yaml:3:7',
    );
    expect(await first.locator('code').textContent()).toBe('invalid-id');
    expect(await first.locator('pre.excerpt mark').textContent()).toContain('id: web 1');
    // No controller ran: the page says there is no graph rather than drawing an empty box.
    expect(await page.locator('#graph-view').count()).toBe(0);
    expect(await page.locator('#graph-tools').count()).toBe(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'several-problems.png'), fullPage: true });
    await page.context().close();
  });

  it('wraps a finding with a long pointer within the page, no wider than the window', async () => {
    const file = path.join(ARTIFACTS, 'nesting-too-deep.html');
    const made = await cli([
      'report',
      '-f',
      'fixtures/invalid/nesting-too-deep',
      '-o',
      file,
      '--quiet',
    ]);
    expect(made.code, made.stderr).toBe(1);
    const { page } = await openReport(file);
    expect(await page.locator('li.finding .pointer').first().textContent()).toMatch(
      /^\(at \/spec\/disks(\/0){100}/,
    );
    const [scroll, client] = await page.evaluate<[number, number]>(
      '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
    );
    expect(scroll).toBeLessThanOrEqual(client);
    await page.context().close();
  });

  it('lets the keyboard reach a source excerpt that scrolls sideways', async () => {
    const file = path.join(ARTIFACTS, 'long-values.html');
    const made = await cli(['report', '-f', 'fixtures/invalid/long-values', '-o', file, '--quiet']);
    expect(made.code, made.stderr).toBe(1);
    const { page } = await openReport(file);
    const wide = await page.evaluate<number>(
      '[...document.querySelectorAll("pre.excerpt")].filter((e) => e.scrollWidth > e.clientWidth).length',
    );
    expect(wide).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('keeps a long controller error to a line under the verdict: the findings stay on the first screen', async () => {
    const file = path.join(ARTIFACTS, 'long-error.html');
    const made = await cli(['report', '-f', 'fixtures/cli/long-error', '-o', file, '--quiet']);
    expect(made.code, made.stderr).toBe(1);
    const { page } = await openReport(file);
    const top = (await page.locator('#findings-title').boundingBox())?.y ?? Infinity;
    expect(top).toBeLessThan(1000);
    await page.locator('#failures summary').click();
    expect(((await page.locator('#failures .whole-error').textContent()) ?? '').length).toBe(
      1_001_020,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("gives the timeline's item and outcome the room their text needs, and the numbers little", async () => {
    const file = path.join(ARTIFACTS, 'failing-controller.html');
    const made = await cli([
      'report',
      '-f',
      'fixtures/cli/failing-controller',
      '-o',
      file,
      '--quiet',
    ]);
    expect(made.code, made.stderr).toBe(1);
    const { page } = await openReport(file);
    const cells = page.locator('#timeline-rows tr:not(.spacer)').first().locator('td');
    await expect.poll(() => cells.count()).toBe(6);
    const fit = await cells.evaluateAll((tds) =>
      (tds as unknown as { scrollWidth: number; clientWidth: number; textContent: string }[]).map(
        (td) => [td.textContent, td.scrollWidth <= td.clientWidth, td.clientWidth] as const,
      ),
    );
    const [seq, , , item, outcome, writes] = fit;
    expect(item?.[0]).toBe('default/Counters.test.cosi.dev/start');
    expect(item?.[1]).toBe(true);
    expect(outcome?.[0]).toBe('error: cannot echo start: one is a lonely number');
    expect(outcome?.[1]).toBe(true);
    expect(seq?.[2]).toBeLessThan(100);
    expect(writes?.[2]).toBeLessThan(100);
    await page.context().close();
  });

  it("cuts no type, controller or mapping of the example's tables: columns fit their text (the table scrolls sideways)", async () => {
    const { page } = await openReport(passing);
    const rows = page.locator('#resource-rows tr:not(.spacer)');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    await expect
      .poll(() => page.locator('#timeline-rows tr:not(.spacer)').count())
      .toBeGreaterThan(0);
    const cut = await page
      .locator('#resource-scroll th, #resource-rows td, #timeline-scroll th, #timeline-rows td')
      .evaluateAll((cells) =>
        (cells as unknown as { scrollWidth: number; clientWidth: number; textContent: string }[])
          .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
          .map((cell) => cell.textContent),
      );
    expect(cut).toEqual([]);
    // Its widest cells are whole: a type, a controller of the example's own.
    const texts = await rows.locator('td').allTextContents();
    expect(texts).toContain('NetworkConfigs.example.org');
    expect(texts).toContain('vmnet.NetworkConfigController');
    // In a narrower window the widest columns give way, the narrow ones stay whole, and a cut
    // cell keeps its whole text as its title.
    await page.setViewportSize({ width: 1000, height: 1000 });
    await expect
      .poll(() =>
        page
          .locator('#resource-scroll')
          .evaluate((box) => (box as unknown as { clientWidth: number }).clientWidth),
      )
      .toBeLessThan(700);
    const narrow = await page
      .locator('#resource-scroll th, #resource-rows td')
      .evaluateAll((cells) =>
        (
          cells as unknown as {
            scrollWidth: number;
            clientWidth: number;
            cellIndex: number;
            title: string;
            textContent: string;
          }[]
        )
          .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
          .map((cell) => [cell.cellIndex, cell.title === cell.textContent] as const),
      );
    expect(narrow.length).toBeGreaterThan(0);
    // Type (1) and Written by (4) only: not the namespace, id or version.
    expect(new Set(narrow.map(([column]) => column))).toEqual(new Set([1, 4]));
    expect(narrow.every(([, titled]) => titled)).toBe(true);
    await page.context().close();
  });

  it('shows the graph and the resources that loaded beside the findings of invalid manifests', async () => {
    const { page, errors } = await openReport(partlyInvalid);
    expect(await page.locator('#verdict').textContent()).toBe('Failed');
    const places = await page.locator('li.finding .place').allTextContents();
    expect(places).toEqual([
      'fixtures/cli/partly-invalid/broken.yaml:2:11',
      'fixtures/cli/partly-invalid/vms.yaml:14:9',
    ]);
    expect(await page.locator('li.finding code').allTextContents()).toEqual([
      'yaml-syntax',
      'schema-violation',
    ]);
    expect(await page.locator('#not-run').textContent()).toContain(
      'The controllers were not run: the manifests have errors',
    );
    // The project's controllers are drawn, and the three resources that loaded (two hosts and
    // the valid VM), not the VM its schema refused nor the document that is not YAML.
    const titles = await page.locator('#graph-view g.node title').allTextContents();
    expect(titles.filter((t) => t.startsWith('controller:')).sort()).toEqual([
      'controller:HostStatusController',
      'controller:PlacementController',
      'controller:vmnet.NetworkConfigController',
    ]);
    expect(titles.filter((t) => t.startsWith('resource:')).sort()).toEqual([
      'resource:default/Hosts.example.org/node-a',
      'resource:default/Hosts.example.org/node-b',
      'resource:default/VMs.example.org/web-1',
    ]);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('3 of 3 resources');
    // Nothing ran: no timeline, and a resource's lineage is its manifest line.
    expect(await page.locator('#timeline-title').count()).toBe(0);
    await page
      .locator('#graph-view g.node', {
        has: page.locator('title', { hasText: /^resource:default\/VMs\.example\.org\/web-1$/ }),
      })
      .click();
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('VMs.example.org default/web-1');
    expect(await lineageLines(page)).toEqual([
      'VMs.example.org(default/web-1)@1  <- manifest fixtures/cli/partly-invalid/vms.yaml:2:1',
    ]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'partly-invalid.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps only the rows in view in the page for 10,000 resources, and searches them all', async () => {
    const size = (await stat(large)).size;
    expect(size).toBeLessThan(5 * 1024 * 1024);
    const { page, errors } = await openReport(large);
    await expect.poll(() => page.locator('#shown').textContent()).toBe('10000 of 10000 resources');
    expect(await page.locator('#resource-rows tr[data-key]').count()).toBeLessThan(60);
    // The graph degrades to the type, and says so; a click on the type lists its resources.
    expect(await page.locator('#graph-note').textContent()).toMatch(
      /^10,000 resources: the graph shows their types/,
    );
    const titles = await page.locator('#graph-view g.node title').allTextContents();
    expect(titles).toEqual(['type:VMs.example.org']);
    await page.locator('#graph-view g.node').click();
    await expect
      .poll(() => page.locator('#details-title').textContent())
      .toBe('type VMs.example.org');
    expect(await page.locator('#shown').textContent()).toBe(
      '10000 of 10000 resources (type VMs.example.org)',
    );
    await page.locator('#search').fill('');
    await page.locator('#resource-scroll').hover();
    await page.mouse.wheel(0, 10_000 * 40);
    await expect
      .poll(() => page.locator('#resource-rows tr[data-key]').last().getAttribute('data-key'))
      .toBe('default/VMs.example.org/vm-09999');
    await page.locator('#search').fill('vm-0500');
    await expect.poll(() => page.locator('#shown').textContent()).toBe('10 of 10000 resources');
    await page.locator('#resource-rows button', { hasText: 'vm-05003' }).click();
    // The chain back to vm-00000 is 5,003 long: the details show 200 lines and say where they cut it.
    const lines = await lineageLines(page);
    expect(lines).toHaveLength(200);
    expect(lines[0]).toBe('VMs.example.org(default/vm-05003)@1  <- Copier reconcile #5003');
    expect(lines[1]).toBe(
      '└─ primary: VMs.example.org(default/vm-05002)@1  <- Copier reconcile #5002',
    );
    expect(lines[199]).toContain('└─ primary: VMs.example.org(default/vm-04804)@1');
    expect(await page.locator('#details .lineage .cut').textContent()).toContain(
      'cut here: 200 lines shown',
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
