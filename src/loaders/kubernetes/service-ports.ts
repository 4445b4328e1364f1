/**
 * What the API server checks of a Service's ports in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateServicePort`, `ValidatePortNumOrName`): with more than one
 * port each needs a name, a name is a unique DNS-1123 label, a port is 1-65535, and a target port
 * is a port number or a valid port name, an `appProtocol` a qualified name; a Service that is neither headless nor an ExternalName
 * has ports at all. Each problem at its field, in the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import {
  isOutOfPortRange,
  MAX_LABEL_MESSAGE,
  PORT_RANGE_MESSAGE,
  portNameProblems,
} from './container-checks.js';
import { DNS1123_LABEL, DNS1123_LABEL_MESSAGE, qualifiedNameProblems } from './label-syntax.js';
import { duplicateValue, invalidValue, requiredValue } from './go-field-error.js';

/** The port problems of a built-in document of `group`/`kind` (none but for a Service). */
export function servicePortProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== '' || kind !== 'Service') return [];
  const spec = isPlainObject(document.spec) ? document.spec : {};
  const ports = spec.ports;
  // `ValidateService`: a Service that is neither headless nor an ExternalName has ports.
  if (
    (ports === undefined || ports === null || (Array.isArray(ports) && ports.length === 0)) &&
    spec.clusterIP !== 'None' &&
    spec.type !== 'ExternalName'
  ) {
    return [{ path: '/spec/ports', part: 'value', keyword: 'required', message: requiredValue() }];
  }
  if (!Array.isArray(ports)) return [];
  const problems: SchemaProblem[] = [];
  const add = (path: (string | number)[], keyword: string, message: string): void => {
    problems.push({
      path: jsonPointer(['spec', 'ports', ...path]),
      part: 'value',
      keyword,
      message,
    });
  };
  const names = new Set<string>();
  ports.forEach((port: unknown, i) => {
    if (!isPlainObject(port)) return;
    const name = port.name;
    if (ports.length > 1 && (name === undefined || name === null || name === '')) {
      add([i, 'name'], 'required', requiredValue());
    } else if (typeof name === 'string' && name !== '') {
      if (name.length > 63)
        add([i, 'name'], 'dns-1123-label', invalidValue(name, MAX_LABEL_MESSAGE));
      if (!DNS1123_LABEL.test(name)) {
        add([i, 'name'], 'dns-1123-label', invalidValue(name, DNS1123_LABEL_MESSAGE));
      }
      if (names.has(name)) add([i, 'name'], 'duplicate', duplicateValue(name));
      names.add(name);
    }
    if (isOutOfPortRange(port.port)) {
      add([i, 'port'], 'port-range', invalidValue(port.port, PORT_RANGE_MESSAGE));
    }
    // `validateServicePort`: `ValidateQualifiedName` (`kubernetes.io/h2c`, `http`).
    const appProtocol = port.appProtocol;
    if (typeof appProtocol === 'string') {
      for (const message of qualifiedNameProblems(appProtocol)) {
        add([i, 'appProtocol'], 'qualified-name', invalidValue(appProtocol, message));
      }
    }
    const target = port.targetPort;
    // An absent (or zero) target port is defaulted to the port.
    if (target !== 0 && isOutOfPortRange(target)) {
      add([i, 'targetPort'], 'port-range', invalidValue(target, PORT_RANGE_MESSAGE));
    } else if (typeof target === 'string') {
      for (const message of portNameProblems(target)) {
        add([i, 'targetPort'], 'port-name', invalidValue(target, message));
      }
    }
  });
  return problems;
}
