/**
 * A value for a message: long ones are cut, so that a finding stays one readable line however
 * long the value written (a 1 MB string, a 300-digit number).
 *
 * @example
 * shorten('x'.repeat(100)) // 'xxx…x... (100 characters)'
 */
export function shorten(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}
