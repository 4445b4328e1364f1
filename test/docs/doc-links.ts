/**
 * The relative links of a Markdown page, read one way for the tests that follow them: those of
 * the repository's pages (links.test.ts) and those of the pages in the installed package
 * (test/package/installed-package.test.ts).
 */

/** The page's text outside fenced blocks and inline code: links inside code are not links. */
function prose(text: string): string {
  return text.replace(/^([ \t]*)```[\s\S]*?^\1```/gm, '').replace(/`[^`\n]*`/g, '');
}

/**
 * Every relative link of a page's text, anchor included: `[text](target)`, `![alt](target)`
 * and `<img src="target">`. Links with a scheme (`https:`, `mailto:`) are left out.
 */
export function relativeLinksOf(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src="([^"]+)"/g)]
    .map((m) => m[1] ?? m[2] ?? '')
    .filter((target) => target !== '' && !/^[a-z]+:/.test(target));
}
