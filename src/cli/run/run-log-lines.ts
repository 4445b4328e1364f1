import { displayPath } from '../../app/display-path.js';
import type { RuntimeFault } from '../../app/served-runtime.js';
import type { ApplyCounts } from '../../app/serve-project.js';
import type { Finding } from '../../loaders/finding.js';
import type { RunLog } from './run-log.js';

/** What `cosi run` says of an apply, the manifests' findings and a fault, as log lines. */

/** What stopped the runtime's thread, as an error line naming the controller and resource. */
export function logFault(log: RunLog, fault: RuntimeFault): void {
  log.error(fault.message, {
    ...(fault.controller !== undefined ? { controller: fault.controller } : {}),
    ...(fault.resource !== undefined ? { resource: fault.resource } : {}),
    code: fault.code,
  });
}

export function describeApply(applied: ApplyCounts): string {
  return `applied ${counted(applied.resources, 'resource')} (${applied.created} created, ${applied.updated} updated, ${applied.removed} removed)`;
}

/** `1 resource`, `2 resources`. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Each finding as a log line: its place, its message, its code. */
export function logFindings(log: RunLog, cwd: string, findings: readonly Finding[]): void {
  for (const f of findings) {
    log.log(
      f.severity === 'error' ? 'error' : 'warn',
      `${displayPath(cwd, f.file)}:${f.line}:${f.col}: ${f.message}`,
      { code: f.code, ...(f.pointer ? { pointer: f.pointer } : {}) },
    );
  }
}

/** The resources an apply left out (too large for the state): their findings, and a line. */
export function logTooLarge(log: RunLog, cwd: string, skipped: readonly Finding[]): void {
  if (skipped.length === 0) return;
  logFindings(log, cwd, skipped);
  log.warn(
    `${counted(skipped.length, 'resource')} not applied: too large for the state (the others were)`,
  );
}
