/** A stream's directives (`%YAML`, `%TAG`), as cosi reads them and as kubectl refuses them. */

import type { Document } from 'yaml';
import { createFinding, type Finding } from '../finding.js';
import type { LineIndex } from '../line-index.js';

/**
 * Refuses a `%YAML` directive for another version than 1.2: cosi reads YAML 1.2 only, and
 * reading a 1.1 document as 1.2 would change its data (`0777`, `yes`) without a word.
 */
export function checkVersion(
  doc: Document.Parsed,
  text: string,
  start: number,
  file: string,
  lineCounter: LineIndex,
  findings: Finding[],
): boolean {
  const { explicit, version } = doc.directives.yaml;
  if (!explicit || version === '1.2') return false;
  const directive = /^%YAML/m.exec(text.slice(start, doc.range[0]));
  const { line, col } = lineCounter.linePos(start + (directive?.index ?? 0));
  findings.push(
    createFinding({
      code: 'yaml-version',
      message: `%YAML ${version} is not supported: cosi reads YAML 1.2 (remove the directive, and check octals such as 0777 and booleans such as yes)`,
      file,
      line,
      col,
      pointer: '',
    }),
  );
  return true;
}

/** A directive line: its name, and its first parameter (a `%YAML` directive's version). */
const DIRECTIVE_LINE = /^%([^\s#]*)(?:[ \t]+([^\s#]+))?/gm;

/**
 * Refuses, in a Kubernetes object's file, the directives before its first document, as kubectl
 * does: go-yaml (after libyaml 0.1) takes `%YAML 1.1` alone ("found incompatible YAML document")
 * and knows `%YAML` and `%TAG` alone ("found unknown directive name"), and kubectl cuts the file
 * at each `---` line before go-yaml reads it, so even `%TAG` comes without the document it
 * belongs to ("did not find expected <document start>"). `head` is the text before the file's
 * first document, from `offset`.
 */
export function checkKubectlDirectives(
  head: string,
  offset: number,
  file: string,
  lineCounter: LineIndex,
  findings: Finding[],
): boolean {
  let refused = false;
  DIRECTIVE_LINE.lastIndex = 0;
  for (let match = DIRECTIVE_LINE.exec(head); match !== null; match = DIRECTIVE_LINE.exec(head)) {
    const [, name = '', parameter] = match;
    const message =
      name === 'YAML'
        ? `%YAML ${parameter ?? ''} in a Kubernetes object's file: kubectl's YAML reader (go-yaml) takes %YAML 1.1 only and refuses the file (found incompatible YAML document); remove the directive`
        : name === 'TAG'
          ? `%TAG in a Kubernetes object's file: kubectl reads the text between --- lines apart, so go-yaml gets the directive without its document and refuses the file (did not find expected <document start>); remove the directive`
          : `%${name} in a Kubernetes object's file: kubectl's YAML reader (go-yaml) knows %YAML and %TAG only and refuses the file (found unknown directive name); remove the directive`;
    const { line, col } = lineCounter.linePos(offset + match.index);
    findings.push(
      createFinding({
        code: name === 'YAML' ? 'yaml-version' : 'yaml-syntax',
        message,
        file,
        line,
        col,
        pointer: '',
      }),
    );
    refused = true;
  }
  return refused;
}
