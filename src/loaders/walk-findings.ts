/**
 * The findings the walk makes of a path it cannot take: one that does not exist, loops, links
 * to nothing, is named in bytes that are not UTF-8, or cannot be read.
 */

import * as path from 'node:path';
import { createFinding, type Finding, type FindingCode } from './finding.js';
import { errorCode } from './manifest-file-system.js';
import { cannotRead, unreadableFile } from './unreadable-file.js';

/**
 * Whether a name met in a directory holds U+FFFD: the name Node gives for one in bytes that are
 * not UTF-8, which then opens nothing (ENOENT) though the directory lists it.
 */
export function hasUndecodedName(name: string): boolean {
  return name.includes('\ufffd');
}

/** A finding about a whole path, `code` at line 0. */
export function pathFinding(code: FindingCode, file: string, message: string): Finding {
  return createFinding({ code, message, file, line: 0, col: 0, pointer: '' });
}

/** What the error of a stat, read or realpath of the path shown as `display` says of it. */
export function pathErrorFinding(display: string, error: unknown): Finding {
  const code = errorCode(error);
  if (code === 'ELOOP') {
    return pathFinding('symlink-loop', display, `${display} is a symlink loop`);
  }
  if (code === 'ENOENT' && hasUndecodedName(path.basename(display))) {
    return unreadableFile(
      display,
      `${display} is named in bytes that are not UTF-8 (shown as \ufffd): cosi cannot open it by that name; rename it`,
    );
  }
  if (code === 'ENOENT') return unreadableFile(display, `${display} is a symlink to nothing`);
  return cannotRead(display, error);
}
