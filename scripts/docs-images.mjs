// Writes the pictures README shows, from the example project, with the built CLI (`npm run build`
// first) and the real browser the report's tests use (Debian's chromium, driven by
// playwright-core):
//   docs/images/vm-network-graph.svg   cosi graph -f fixtures/vm-network --resources -o svg --stable
//   docs/images/report.png             cosi report of it, the Placement web-1 selected: its lineage
//   docs/images/report-invalid.png     cosi report of fixtures/cli/partly-invalid: findings, graph
// `node scripts/docs-images.mjs`; `--check` exits 1 when the SVG is out of date (the PNGs are
// screenshots, not compared). test/docs/docs-images.test.ts runs the same SVG comparison.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const images = join(root, 'docs/images');
const CHROMIUM = '/usr/bin/chromium';

/** Runs the built CLI from the repository root; its stdout. Exit codes 0 and 1 are outcomes. */
function cosi(args) {
  try {
    return execFileSync(process.execPath, [join(root, 'bin/cosi.js'), ...args], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    if (error.status === 1) return error.stdout;
    throw error;
  }
}

/** The example project's graph, as README shows it. */
export function graphSvg() {
  return cosi(['graph', '-f', 'fixtures/vm-network', '--resources', '-o', 'svg', '--stable', '-q']);
}

/**
 * A screenshot of a report page from the top down to the bottom of `until`, after `act`, at the
 * width of a laptop's window: a picture of the part a reviewer looks at first.
 */
async function screenshot(browser, html, file, act, until) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.goto(pathToFileURL(html).href);
  await page.locator('#resources-ui').waitFor();
  await act(page);
  const box = await page.locator(until).boundingBox();
  await page.screenshot({
    path: file,
    fullPage: true,
    clip: { x: 0, y: 0, width: 1200, height: Math.ceil(box.y + box.height + 16) },
  });
  await context.close();
}

async function writeScreenshots() {
  const { chromium } = await import('playwright-core');
  const work = mkdtempSync(join(tmpdir(), 'cosi-docs-images-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const passing = join(work, 'vm-network.html');
    cosi(['report', '-f', 'fixtures/vm-network', '-o', passing, '-q']);
    await screenshot(
      browser,
      passing,
      join(images, 'report.png'),
      async (page) => {
        await page
          .locator('#graph-view g.node', {
            has: page.locator('title', {
              hasText: /^resource:default\/Placements\.example\.org\/web-1$/,
            }),
          })
          .click();
        await page.locator('#details .lineage-line').first().waitFor();
      },
      '.layout',
    );
    const invalid = join(work, 'partly-invalid.html');
    cosi(['report', '-f', 'fixtures/cli/partly-invalid', '-o', invalid, '-q']);
    await screenshot(
      browser,
      invalid,
      join(images, 'report-invalid.png'),
      async () => {},
      '#graph-view',
    );
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const svgFile = join(images, 'vm-network-graph.svg');
  const svg = graphSvg();
  if (process.argv.includes('--check')) {
    if (readFileSync(svgFile, 'utf8') !== svg) {
      process.stderr.write(`${svgFile} is out of date: run node scripts/docs-images.mjs\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(svgFile, svg);
    await writeScreenshots();
  }
}
