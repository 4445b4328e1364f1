// Writes docs/api.md, the reference of what `import ... from 'cosi'`, 'cosi/loaders' and 'cosi/testing' give,
// from the barrels themselves: every exported name, what it is, the first sentence of its doc
// comment and the module it lives in, in the barrel's order and under its `// Section` comments.
// `node scripts/api-reference.mjs` rewrites the page; `--check` exits 1 when it is out of date
// (test/docs/api-reference.test.ts runs the same comparison).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The barrels documented, as users import them. */
const BARRELS = [
  { specifier: 'cosi', file: 'src/index.ts' },
  { specifier: 'cosi/loaders', file: 'src/loaders/index.ts' },
  { specifier: 'cosi/testing', file: 'src/testing/index.ts' },
];

/** The page's text. */
export function apiReference() {
  const program = ts.createProgram(
    BARRELS.map((b) => join(root, b.file)),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      jsx: ts.JsxEmit.ReactJSX,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const out = [
    '# The library API',
    '',
    'Every name the package exports, generated from its barrels by `node scripts/api-reference.mjs`',
    '(a test fails when this page and the code disagree). The first sentence of each doc comment is',
    'shown; the module holds the rest. docs/controllers.md\'s "The library" shows them at work.',
    '',
  ];
  for (const barrel of BARRELS) {
    out.push(`## \`${barrel.specifier}\``, '');
    for (const section of sections(program, checker, barrel.file)) {
      if (section.title) out.push(`### ${section.title}`, '');
      out.push('| name | kind | what | module |', '| --- | --- | --- | --- |');
      for (const entry of section.entries) {
        out.push(
          `| \`${entry.name}\` | ${entry.kind} | ${escapeCell(entry.summary)} | [${entry.module}](../${entry.module}) |`,
        );
      }
      out.push('');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** The exported names that have no doc comment, as `specifier: name`. */
export function undocumentedExports() {
  const program = ts.createProgram(
    BARRELS.map((b) => join(root, b.file)),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
  );
  const checker = program.getTypeChecker();
  return BARRELS.flatMap((barrel) =>
    sections(program, checker, barrel.file).flatMap((section) =>
      section.entries
        .filter((entry) => entry.summary === '')
        .map((entry) => `${barrel.specifier}: ${entry.name}`),
    ),
  );
}

function sections(program, checker, file) {
  const source = program.getSourceFile(join(root, file));
  const text = source.getFullText();
  const found = [];
  let current = { title: '', entries: [] };
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause) continue;
    const title = sectionTitle(text, statement);
    if (title !== undefined && title !== current.title) {
      if (current.entries.length > 0) found.push(current);
      current = { title, entries: [] };
    }
    const module = statement.moduleSpecifier
      ? relative(
          root,
          join(dirname(join(root, file)), statement.moduleSpecifier.text.replace(/\.js$/, '.ts')),
        )
      : file;
    if (!ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) {
      const alias = checker.getSymbolAtLocation(element.name);
      const symbol =
        alias && alias.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(alias) : alias;
      current.entries.push({
        name: element.name.text,
        kind: kindOf(symbol),
        summary: symbol ? firstSentence(symbol, checker) : '',
        module: module.split('\\').join('/'),
      });
    }
  }
  if (current.entries.length > 0) found.push(current);
  return found;
}

/** The `// Title` line comment right before an export, the first of its comment lines. */
function sectionTitle(text, statement) {
  const ranges = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
  const lines = ranges
    .filter((r) => r.kind === ts.SyntaxKind.SingleLineCommentTrivia)
    .map((r) => text.slice(r.pos + 2, r.end).trim());
  if (lines.length === 0) return undefined;
  return lines[0].replace(/\s*\(.*$/, '');
}

function kindOf(symbol) {
  if (!symbol) return '';
  const f = symbol.flags;
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  if (f & ts.SymbolFlags.TypeAlias) return 'type';
  if (f & ts.SymbolFlags.Enum) return 'enum';
  if (f & ts.SymbolFlags.Variable) return 'const';
  return '';
}

function firstSentence(symbol, checker) {
  let text = ts.displayPartsToString(symbol.getDocumentationComment(checker));
  for (const declaration of text ? [] : (symbol.declarations ?? [])) {
    // A function documents itself on its first overload or its implementation.
    if (!ts.isFunctionLike(declaration)) continue;
    const signature = checker.getSignatureFromDeclaration(declaration);
    text = signature ? ts.displayPartsToString(signature.getDocumentationComment(checker)) : '';
    if (text) break;
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.:](\s|$)/);
  return (end === -1 ? flat : flat.slice(0, end + 1)).replace(/:$/, '.');
}

function escapeCell(text) {
  return text.replace(/\|/g, '\\|');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const path = join(root, 'docs', 'api.md');
  const page = apiReference();
  if (process.argv.includes('--check')) {
    const current = readFileSync(path, 'utf8');
    if (current !== page) {
      process.stderr.write('docs/api.md is out of date: run node scripts/api-reference.mjs\n');
      process.exitCode = 1;
    }
  } else {
    writeFileSync(path, page);
  }
}
