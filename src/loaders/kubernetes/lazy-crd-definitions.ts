/**
 * The definitions of a file of CRDs read from its outline (`crd-outline-scan.ts`) and parsed only
 * when one is used: a `--definitions` bundle costs the scan of its files, and a kind's CRD is
 * parsed, read and checked the first time a document or a controller needs it. Each definition
 * has its names (type, aliases, Kubernetes identity) from the outline; its `schema` and
 * `printColumns` are read from the parsed file on first access. The parse and the CRD's checks
 * are the definition's put-off check (`deferred-check.ts`): their findings, at the CRD's own
 * file:line:col, join the load that first uses the kind, and a CRD that fails them leaves its
 * kind undefined, as an invalid CRD does.
 */

import {
  createDefinition,
  DefinitionError,
  type KubernetesKind,
  type PrintColumn,
  type ResourceDefinition,
} from '../../engine/resource/definition.js';
import type { CelRules } from '../cel/cel-rule-engine.js';
import { DocumentReport } from '../document-report.js';
import { createFinding, type Finding } from '../finding.js';
import { isPlainObject } from '../manifest-document.js';
import { MAX_CRD_BYTES, parseManifest } from '../parse/parse-manifest.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import { VALIDATIONS_KEYWORD } from '../schema-node.js';
import { camelPlural, isCrdDocument, readCrd } from './crd-definitions.js';
import type { CrdOutline } from './crd-outline-scan.js';
import { deferCheck, runDeferredCheck } from './deferred-check.js';
import { isKubernetesShaped } from './kubernetes-shape.js';
import { markRead, markUnread } from './unread-definitions.js';

/** What {@link lazyCrdDefinitions} needs to read a CRD when it is used. */
export interface LazyCrdOptions {
  readonly compiler: SchemaCompiler;
  readonly celRules: () => CelRules;
}

/** A used CRD's file, parsed once for all the definitions of its CRDs. */
interface ReadFile {
  /** `apiVersion/kind` -> the definition read from the parsed CRD. */
  readonly definitions: Map<string, ResourceDefinition>;
  /** `group/kind` -> the findings of reading that CRD (each reported once). */
  readonly findings: Map<string, Finding[]>;
  /** The file's parse findings (reported with the first kind used). */
  parseFindings: Finding[];
}

/**
 * The definitions of the served versions of `outlines` (the CRDs of one file), put off until
 * used; `undefined` when one cannot be made from its outline (the file is then read at once, so
 * that its problem is reported as any CRD's is).
 */
export function lazyCrdDefinitions(
  file: string,
  text: string,
  outlines: readonly CrdOutline[],
  options: LazyCrdOptions,
): ResourceDefinition[] | undefined {
  // Refused before it is parsed, with its own finding: left to the reading of the file.
  if (text.length > MAX_CRD_BYTES) return undefined;
  let read: ReadFile | undefined;
  const readFile = (): ReadFile => (read ??= readWholeFile(file, text, options));
  const definitions: ResourceDefinition[] = [];
  const mayHaveRules = text.includes(VALIDATIONS_KEYWORD);
  for (const outline of outlines) {
    const plural = camelPlural(outline.names.plural, outline.names.kind);
    for (const version of outline.versions) {
      if (!version.served) continue;
      let named: ResourceDefinition;
      try {
        named = createDefinition({
          type: version.storage
            ? `${plural}.${outline.group}`
            : `${plural}.${version.name}.${outline.group}`,
          displayType: outline.names.kind,
          ...(version.storage
            ? {
                aliases: [
                  ...(outline.names.shortNames ?? []),
                  ...(outline.names.singular ? [outline.names.singular] : []),
                  outline.names.kind,
                ],
              }
            : { skipAutomaticAliases: true }),
          kubernetes: {
            apiVersion: `${outline.group}/${version.name}`,
            kind: outline.names.kind,
            namespaced: outline.scope === 'Namespaced',
            ...(version.statusSubresource ? { statusSubresource: true } : {}),
          },
        });
      } catch (error) {
        if (error instanceof DefinitionError) return undefined;
        throw error;
      }
      definitions.push(deferredDefinition(named, outline, version, file, readFile, mayHaveRules));
    }
  }
  return definitions;
}

/**
 * The Kubernetes identity of a version whose outline says it has the scale subresource or is
 * deprecated: its scale paths and deprecation warning, which the outline does not read, are read
 * from the parsed CRD when first asked for (as a document of the kind is checked).
 */
function lazyKubernetesKind(
  kubernetes: KubernetesKind | undefined,
  version: CrdOutline['versions'][number],
  read: () => KubernetesKind | undefined,
): { kubernetes?: KubernetesKind } {
  const scale = version.scaleSubresource === true;
  const deprecated = version.deprecated === true;
  if (kubernetes === undefined || (!scale && !deprecated)) return {};
  const lazy: Record<string, unknown> = { ...kubernetes };
  if (scale) Object.defineProperty(lazy, 'scale', { enumerable: true, get: () => read()?.scale });
  if (deprecated) {
    Object.defineProperty(lazy, 'deprecationWarning', {
      enumerable: true,
      get: () => read()?.deprecationWarning,
    });
  }
  return { kubernetes: lazy as unknown as KubernetesKind };
}

/** `named` with its schema and columns read from the parsed file on first access. */
function deferredDefinition(
  named: ResourceDefinition,
  outline: CrdOutline,
  version: CrdOutline['versions'][number],
  fileName: string,
  readFile: () => ReadFile,
  mayHaveRules: boolean,
): ResourceDefinition {
  const { printColumns: _none, ...fields } = named;
  const identity = `${named.kubernetes?.apiVersion ?? ''}/${outline.names.kind}`;
  const real = (): ResourceDefinition | undefined => {
    const found = readFile().definitions.get(identity);
    markRead(definition);
    return found;
  };
  const kubernetes = lazyKubernetesKind(named.kubernetes, version, () => real()?.kubernetes);
  const definition = Object.defineProperties(
    { ...fields, ...kubernetes },
    {
      schema: { enumerable: true, get: () => real()?.schema },
      printColumns: {
        enumerable: true,
        get: (): readonly PrintColumn[] => real()?.printColumns ?? [],
      },
    },
  ) as ResourceDefinition;
  markUnread(definition, mayHaveRules);
  deferCheck(definition, () => {
    const file = readFile();
    const findings = [...file.parseFindings];
    file.parseFindings = [];
    const crd = `${outline.group}/${outline.names.kind}`;
    findings.push(...(file.findings.get(crd) ?? []));
    file.findings.set(crd, []);
    const found = real();
    if (found !== undefined) findings.push(...(runDeferredCheck(found) ?? []));
    else if (!findings.some((f) => f.severity === 'error')) {
      // The scan and the parse disagree (the scan refuses what it is not sure of, so this is a
      // scan bug): the kind is left undefined rather than checked against something else.
      findings.push(
        createFinding({
          code: 'invalid-definition',
          file: fileName,
          line: 0,
          col: 0,
          pointer: '',
          message: `the CustomResourceDefinition of ${identity} reads differently in full than its outline: report this to cosi`,
        }),
      );
    }
    return findings;
  });
  return definition;
}

/** Parses a used CRD's file and reads each of its CRDs as any CRD is read. */
function readWholeFile(file: string, text: string, options: LazyCrdOptions): ReadFile {
  const manifest = parseManifest(text, file);
  const read: ReadFile = {
    definitions: new Map(),
    findings: new Map(),
    parseFindings: [...manifest.findings],
  };
  for (const document of manifest.documents) {
    const value = document.value;
    if (!isKubernetesShaped(value) || !isCrdDocument(value)) continue;
    const findings: Finding[] = [];
    const report = new DocumentReport(document, findings);
    const metadata = isPlainObject(value.metadata) ? value.metadata : {};
    const name = typeof metadata.name === 'string' ? metadata.name : undefined;
    const versions = readCrd(value, name, report, options.compiler, {
      deferSchemaCheck: true,
      celRules: options.celRules,
    });
    const spec = isPlainObject(value.spec) ? value.spec : {};
    const names = isPlainObject(spec.names) ? spec.names : {};
    read.findings.set(`${String(spec.group)}/${String(names.kind)}`, findings);
    for (const version of versions) {
      const kubernetes = version.definition.kubernetes;
      if (kubernetes !== undefined) {
        read.definitions.set(`${kubernetes.apiVersion}/${kubernetes.kind}`, version.definition);
      }
    }
  }
  return read;
}
