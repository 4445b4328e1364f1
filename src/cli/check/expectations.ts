import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { LineCounter, parseAllDocuments, stringify } from 'yaml';
import { deepEqual } from '../../engine/resource/plain-data.js';
import type { ResourceGroup } from '../render/resources.js';
import { toDocument } from '../render/resource-document.js';
import type { Finding } from '../../loaders/finding.js';
import type { CheckCase, CheckCode } from './check-result.js';

interface ExpectedDocument {
  readonly key: string;
  readonly value: Record<string, unknown>;
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

const YAML_FILE = /\.ya?ml$/;

/** The converged state as printed by `cosi apply -o yaml --stable`, keyed by namespace/type/id. */
function actualDocuments(groups: readonly ResourceGroup[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const group of groups) {
    for (const resource of group.resources) {
      const doc = JSON.parse(
        JSON.stringify(toDocument(resource, group.definition, { stable: true })),
      ) as Record<string, unknown>;
      out.set(keyOf(doc), doc);
    }
  }
  return out;
}

/**
 * Compares the converged state with a golden tree: every YAML file below `dir`, as written by
 * `cosi apply -o yaml --stable` or `cosi check --update`. One case per resource: missing,
 * unexpected, or different (with a unified diff).
 */
export async function compareExpectations(
  dir: string,
  displayDir: string,
  groups: readonly ResourceGroup[],
): Promise<CheckCase[]> {
  const expected = await readExpected(dir, displayDir);
  const actual = actualDocuments(groups);
  const cases: CheckCase[] = [];
  const keys = [...new Set([...expected.documents.keys(), ...actual.keys()])].sort();
  for (const key of keys) {
    const want = expected.documents.get(key);
    const got = actual.get(key);
    const findings: Finding<CheckCode>[] = [];
    if (want && !got) {
      findings.push({
        ...at(want),
        code: 'missing-resource',
        severity: 'error',
        message: `expected ${key}, but the converged state has no such resource`,
      });
    } else if (!want && got) {
      findings.push({
        code: 'unexpected-resource',
        severity: 'error',
        message: `the converged state has ${key}, which the expectations do not list`,
        file: displayDir,
        line: 0,
        col: 0,
        pointer: '',
      });
    } else if (want && got && !deepEqual(want.value, got)) {
      findings.push({
        ...at(want),
        code: 'unexpected-state',
        severity: 'error',
        message: `${key} differs from the expectation`,
        diff: unifiedDiff(want.file, want.value, got),
      });
    }
    cases.push({ check: 'expectations', name: key, findings: [...findings] });
  }
  return [...expected.problems, ...cases];
}

/** Writes the golden tree: one `<type>.yaml` per type; stale YAML files in `dir` are removed. */
export async function writeExpectations(
  dir: string,
  groups: readonly ResourceGroup[],
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const group of groups) {
    const name = `${group.type}.yaml`;
    const text = group.resources
      .map(
        (r) =>
          `---\n${stringify(toDocument(r, group.definition, { stable: true }), { lineWidth: 0 })}`,
      )
      .join('');
    await writeFile(path.join(dir, name), text);
    written.push(name);
  }
  for (const entry of await readdir(dir)) {
    if (YAML_FILE.test(entry) && !written.includes(entry)) await rm(path.join(dir, entry));
  }
  return written;
}

async function readExpected(
  dir: string,
  displayDir: string,
): Promise<{ documents: Map<string, ExpectedDocument>; problems: CheckCase[] }> {
  const documents = new Map<string, ExpectedDocument>();
  const problems: CheckCase[] = [];
  let entries: string[];
  try {
    entries = (await readdir(dir, { recursive: true })).filter((e) => YAML_FILE.test(e)).sort();
  } catch {
    problems.push({
      check: 'expectations',
      name: displayDir,
      findings: [
        {
          code: 'unreadable-expectations',
          severity: 'error',
          message: `cannot read the expectations directory ${displayDir}`,
          file: displayDir,
          line: 0,
          col: 0,
          pointer: '',
        },
      ],
    });
    return { documents, problems };
  }
  for (const entry of entries) {
    const file = path.join(displayDir, entry);
    const text = await readFile(path.join(dir, entry), 'utf8');
    const lineCounter = new LineCounter();
    for (const doc of parseAllDocuments(text, { lineCounter })) {
      if (!('contents' in doc) || doc.contents === null) continue;
      const start = lineCounter.linePos(doc.contents.range[0]);
      const value: unknown = doc.errors.length > 0 ? undefined : doc.toJS({ maxAliasCount: 100 });
      const key =
        typeof value === 'object' && value !== null ? keyOf(value as Record<string, unknown>) : '';
      if (key === '') {
        problems.push({
          check: 'expectations',
          name: `${file}:${start.line}`,
          findings: [
            {
              code: 'invalid-expectation',
              severity: 'error',
              message: 'not a resource document with metadata.namespace, type and id',
              file,
              line: start.line,
              col: start.col,
              pointer: '',
            },
          ],
        });
        continue;
      }
      documents.set(key, {
        key,
        value: value as Record<string, unknown>,
        file,
        line: start.line,
        col: start.col,
      });
    }
  }
  return { documents, problems };
}

function keyOf(doc: Record<string, unknown>): string {
  const md = doc.metadata as Record<string, unknown> | undefined;
  if (
    !md ||
    typeof md.namespace !== 'string' ||
    typeof md.type !== 'string' ||
    typeof md.id !== 'string'
  ) {
    return '';
  }
  return `${md.namespace}/${md.type}/${md.id}`;
}

function at(doc: ExpectedDocument): Pick<Finding<CheckCode>, 'file' | 'line' | 'col' | 'pointer'> {
  return { file: doc.file, line: doc.line, col: doc.col, pointer: '' };
}

function unifiedDiff(file: string, want: unknown, got: unknown): string {
  const patch = createTwoFilesPatch(
    `${file} (expected)`,
    'converged state',
    stringify(want, { lineWidth: 0 }),
    stringify(got, { lineWidth: 0 }),
    undefined,
    undefined,
    { context: 3 },
  );
  // Drop the "Index:" and "===" header lines; keep ---/+++ and the hunks.
  return patch
    .split('\n')
    .filter((line) => !line.startsWith('Index:') && !/^=+$/.test(line))
    .join('\n')
    .trimEnd();
}
