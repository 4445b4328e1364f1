import { plural } from '../render/plural.js';
import { escapeControl } from '../render/escape-control.js';
import type { DetailLine } from './resource-detail.js';
import type { ControllerRow } from './round-view.js';
import { describeCondition } from './round-text.js';

/**
 * What Enter shows for a controller (controllers focus): its condition and counts this round,
 * its last error whole, and each item it gave up on with the error of its last attempt. Every
 * line of an error is a line here, its control characters written out (`\x1b`).
 */
export function controllerDetail(controller: ControllerRow): DetailLine[] {
  const lines: DetailLine[] = [
    { text: `controller ${escapeControl(controller.name)}`, style: 'title' },
    { text: `  condition   ${describeCondition(controller)}` },
    {
      text: `  this round  ${[
        plural(controller.reconciles, 'reconcile'),
        plural(controller.writes, 'write'),
        plural(controller.errors, 'error'),
      ].join(', ')}`,
    },
  ];
  if (controller.lastError !== undefined) {
    lines.push(
      { text: '' },
      { text: 'last error', style: 'title' },
      ...errorLines(controller.lastError, '  '),
    );
  }
  const failing = controller.failing ?? [];
  if (controller.failingItems > 0) {
    lines.push(
      { text: '' },
      { text: `items failing (${controller.failingItems})`, style: 'title' },
    );
    for (const item of failing) {
      lines.push(
        {
          text: `  ${escapeControl(item.resource)}: given up after ${plural(item.attempts, 'attempt')}`,
        },
        ...errorLines(item.error, '    '),
      );
    }
    const more = controller.failingItems - failing.length;
    if (more > 0) lines.push({ text: `  ... and ${more} more`, style: 'dim' });
  }
  return lines;
}

function errorLines(error: string, indent: string): DetailLine[] {
  return error.split('\n').map((line) => ({ text: `${indent}${escapeControl(line)}` }));
}
