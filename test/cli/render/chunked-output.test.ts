import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../../src/cli/program.js';
import {
  CHUNK_SIZE,
  ChunkedWriter,
  collectChunks,
} from '../../../src/cli/render/chunked-writer.js';
import { renderTable, writeTable } from '../../../src/cli/render/table.js';
import {
  renderResources,
  writeResources,
  type ResourceFormat,
} from '../../../src/cli/render/resources.js';
import type { ResourceGroup } from '../../../src/app/resource-query.js';
import { toDocument } from '../../../src/app/output-document.js';
import { newResource, type Resource } from '../../../src/engine/resource/resource.js';
import { REPO } from '../run-cli.js';

/** Two types of gadgets, enough of them for a few hundred KiB of output in every format. */
function gadgets(count: number): ResourceGroup[] {
  return ['Gadgets.example.org', 'Widgets.example.org'].map((type) => ({
    type,
    definition: undefined,
    resources: Array.from(
      { length: count },
      (_, i) =>
        newResource(
          { namespace: 'default', type, id: `g-${String(i).padStart(5, '0')}` },
          { size: i % 7, colour: `c${i % 3}` },
        ) as Resource,
    ),
  }));
}

function chunksOf(groups: ResourceGroup[], format: ResourceFormat): string[] {
  const chunks: string[] = [];
  writeResources(groups, format, (chunk) => chunks.push(chunk), { stable: true });
  return chunks;
}

describe('resources written in chunks', () => {
  const groups = gadgets(1500);
  const documents = groups.flatMap((g) =>
    g.resources.map((r) => toDocument(r, undefined, { stable: true })),
  );

  it.each(['table', 'wide', 'name', 'yaml', 'json'] as const)(
    '-o %s comes in chunks of bounded size that add up to the whole output',
    (format) => {
      const chunks = chunksOf(groups, format);
      expect(chunks.length).toBeGreaterThan(1);
      // A chunk is written once it passes the size: by at most one resource's text.
      for (const chunk of chunks) expect(chunk.length).toBeLessThan(CHUNK_SIZE + 1024);
      expect(chunks.join('')).toBe(renderResources(groups, format, { stable: true }));
    },
  );

  it("-o json is kubectl's List of the documents, stringified with an indent of two", () => {
    const list = (items: unknown[]) => ({
      apiVersion: 'v1',
      items,
      kind: 'List',
      metadata: { resourceVersion: '' },
    });
    expect(chunksOf(groups, 'json').join('')).toBe(`${JSON.stringify(list(documents), null, 2)}\n`);
    expect(chunksOf([], 'json').join('')).toBe(`${JSON.stringify(list([]), null, 2)}\n`);
    const [one] = documents;
    const single: string[] = [];
    writeResources(
      [{ ...groups[0]!, resources: groups[0]!.resources.slice(0, 1) }],
      'json',
      (chunk) => single.push(chunk),
      { stable: true, single: true },
    );
    expect(single.join('')).toBe(`${JSON.stringify(one, null, 2)}\n`);
  });

  it('-o yaml is a --- stream of the documents', () => {
    expect(chunksOf(groups, 'yaml').join('')).toBe(
      documents
        .map(
          (d) =>
            `---\n${stringify(d, { lineWidth: 0, aliasDuplicateObjects: false, version: '1.1' })}`,
        )
        .join(''),
    );
  });

  it('tables keep their columns aligned across chunks, a blank line between types', () => {
    const lines = chunksOf(groups, 'table').join('').split('\n');
    expect(lines).toHaveLength(2 * 1501 + 1 + 1);
    const header = lines[0] ?? '';
    const id = header.indexOf('ID');
    expect(lines.slice(1, 1501).every((line) => line.indexOf('g-') === id)).toBe(true);
    expect(lines[1501]).toBe('');
  });
});

describe('a table', () => {
  it('is made from rows read twice (widths, then lines), so they need not be held', () => {
    let reads = 0;
    let made = 0;
    const rows = {
      *[Symbol.iterator]() {
        reads++;
        for (let i = 0; i < 3; i++) {
          made++;
          yield [`id-${'x'.repeat(i)}`, `\u001b${i}`, 'last'];
        }
      },
    };
    const text = collectChunks((write) => {
      const out = new ChunkedWriter(write);
      writeTable(['ID', 'CODE', 'NOTE'], rows, out);
      out.flush();
    });
    expect(reads).toBe(2);
    expect(made).toBe(6);
    // The same text as the table of the rows held in an array.
    expect(text).toBe(renderTable(['ID', 'CODE', 'NOTE'], [...rows]));
    expect(text.split('\n')[3]).toBe('id-xx   \\x1b2   last');
  });
});

describe('cosi apply', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-chunks-'));
    const docs = Array.from(
      { length: 3000 },
      (_, i) => `---\nmetadata: { type: vm, id: vm-${i} }\nspec: { cpus: 2, image: debian }\n`,
    );
    await writeFile(path.join(dir, 'many.yaml'), docs.join(''));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the resulting state to stdout in chunks, not as one string', async () => {
    const writes: string[] = [];
    const code = await runCli(
      ['apply', '-f', path.join(REPO, 'fixtures/minimal/definitions.yaml'), '-f', dir, '-q'],
      {
        stdout: { write: (text: string) => writes.push(text) },
        stderr: { write: () => true },
        cwd: REPO,
        env: {},
        isTTY: false,
      },
    );
    expect(code).toBe(0);
    expect(writes.length).toBeGreaterThan(1);
    expect(writes.join('').split('\n')).toHaveLength(3000 + 1 + 1);
  });
});
