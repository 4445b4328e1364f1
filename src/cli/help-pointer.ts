/**
 * Commander's bare refusal of a flag (`error: unknown option '--dry-run'`, no nearer flag to
 * name) with where the command's flags are, as kubectl's "See 'kubectl apply --help' for usage."
 * `text` as it was when it already says more (a "Did you mean", kubeconform's flag).
 *
 * @example
 * withHelpPointer("error: unknown option '--dry-run'\n", 'apply')
 * // "error: unknown option '--dry-run'\n(cosi apply --help lists its flags)\n"
 */
export function withHelpPointer(text: string, command: string): string {
  if (!/^error: unknown option '[^'\n]*'\n?$/.test(text)) return text;
  return `${text.replace(/\n?$/, '')}\n(cosi ${command} --help lists its flags)\n`;
}
