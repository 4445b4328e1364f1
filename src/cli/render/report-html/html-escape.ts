import { escapeControlLines } from '../escape-control.js';

/**
 * Text safe inside HTML elements and quoted attributes. Control characters (a manifest's NUL,
 * `ESC ]0;title BEL`) are written out as escapes (`\x1b`), as every human-readable output
 * writes them: raw, NUL is a parse error in HTML, and the page printed to a terminal
 * (`cosi report -o -`) would replay them. Line feeds stay.
 */
export function escapeHtml(text: string): string {
  return escapeControlLines(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
