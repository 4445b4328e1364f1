/** The report's stylesheet: plain CSS, readable in light colours, no external fonts. */
export const REPORT_STYLE = `
[hidden] { display: none !important; }
/* Light by default (and on paper), dark on a screen whose reader chose dark: controls follow. */
:root {
  color-scheme: light dark;
  --fg: #1f2328; --bg: #fff; --border: #d0d7de; --muted: #3d444d; --faint: #57606a;
  --code-bg: #f6f8fa; --mark: #fff1b3; --link: #0550ae; --row-border: #eaeef2; --lineage: #8c959f;
  --error: #b3171f; --warning: #7d4e00; --failed-bg: #ffebe9; --failed-fg: #82071e; --selected: #0969da;
  --node-bg: #fff; --type-bg: #e0eeee;
  --added: #116329; --added-bg: #dafbe1; --removed: #82071e; --removed-bg: #ffebe9;
}
@media screen and (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --bg: #0d1117; --border: #3d444d; --muted: #b7bdc8; --faint: #9198a1;
    --code-bg: #161b22; --mark: #332800; --link: #6cb6ff; --row-border: #262c36; --lineage: #656c76;
    --error: #ff7b72; --warning: #e3b341; --failed-bg: #4a1518; --failed-fg: #ffaba8; --selected: #4493f8;
    --node-bg: #161b22; --type-bg: #1c3333;
    --added: #7ee787; --added-bg: #12261e; --removed: #ffa198; --removed-bg: #3c1618;
  }
}
:root { font-family: system-ui, sans-serif; color: var(--fg); background: var(--bg); }
body { margin: 0 auto; max-width: 80rem; padding: 1rem 1.5rem; line-height: 1.4; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid var(--border); }
code, pre, .mono { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.85rem; }
.verdict { display: inline-block; padding: 0.2rem 0.8rem; border-radius: 0.3rem; font-weight: bold; color: #fff; }
.verdict.passed { background: #1a7f37; }
.verdict.failed { background: #b3171f; }
.verdict.not-converged, .verdict.not-run { background: #7d4e00; }
.summary { margin: 0.5rem 0; }
nav.contents ul { list-style: none; padding: 0; margin: 0.5rem 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; }
a { color: var(--link); }
.failures { margin: 0.5rem 0; padding: 0.3rem 0.6rem 0.3rem 1.8rem; border-left: 4px solid #b3171f; background: var(--failed-bg); overflow-wrap: anywhere; }
.failures .whole-error { max-height: 20rem; overflow: auto; white-space: pre-wrap; margin: 0.3rem 0; }
.failed-item { font-family: ui-monospace, Menlo, Consolas, monospace; }
#graph-view g.node.failed polygon, #graph-view g.node.failed path, #graph-view g.node.failed ellipse { stroke: var(--error); stroke-width: 3; fill: var(--failed-bg); }
#graph-view g.node.failed text { fill: var(--failed-fg); font-weight: bold; }
tr.failed td { background: var(--failed-bg); }
.failed-mark { color: var(--error); font-weight: bold; }
.failure-note { border-left: 4px solid #b3171f; padding-left: 0.5rem; color: var(--failed-fg); overflow-wrap: anywhere; }
.findings { padding-left: 1.5rem; }
/* A long pointer or message (a path 200 levels deep) wraps instead of widening the page. */
.finding p { margin: 0.2rem 0; overflow-wrap: anywhere; }
.finding-group { margin: 0.3rem 0; }
.finding-group > summary { cursor: pointer; padding: 0.2rem 0; }
.finding-group > summary code { font-weight: bold; }
.group-count { font-weight: bold; font-variant-numeric: tabular-nums; }
button.copy { font-size: 0.8rem; padding: 0 0.4rem; }
a.resource-link { margin-left: 0.5rem; overflow-wrap: anywhere; }
table.virtual tr.chosen td { background: var(--mark); }
.severity { font-weight: bold; }
.severity.error { color: var(--error); }
.severity.warning { color: var(--warning); }
.place, .pointer { color: var(--muted); }
a.skip { position: absolute; left: -10000px; }
a.skip:focus { position: static; display: inline-block; margin: 0.2rem 0; }
pre.diff ins { text-decoration: none; color: var(--added); background: var(--added-bg); }
pre.diff del { text-decoration: none; color: var(--removed); background: var(--removed-bg); }
pre.excerpt, pre.diff, pre.spec, pre.lineage-tree { background: var(--code-bg); border: 1px solid var(--border); padding: 0.4rem; overflow: auto; max-height: 20rem; }
pre.excerpt mark { background: var(--mark); color: var(--fg); display: inline-block; width: 100%; }
.ln { display: inline-block; min-width: 3rem; color: var(--faint); user-select: none; }
.toolbar { display: flex; gap: 0.5rem; align-items: center; margin: 0.3rem 0; flex-wrap: wrap; }
#search, #finding-search { width: 22em; max-width: 100%; }
button { font: inherit; padding: 0.1rem 0.6rem; }
#graph-view { border: 1px solid var(--border); height: 30rem; overflow: hidden; cursor: grab; touch-action: none; background: var(--bg); }
#graph-view svg { width: 100%; height: 100%; }
#graph-view g.node, #graph-view g.cluster { cursor: pointer; }
/* Graphviz writes black, white and azure2 as attributes: the theme's colours replace them. */
#graph-view svg g.graph > polygon { fill: var(--bg); }
#graph-view svg [stroke="black"] { stroke: var(--fg); }
#graph-view svg [fill="black"] { fill: var(--fg); }
#graph-view svg [fill="white"] { fill: var(--node-bg); }
#graph-view svg [fill="#e0eeee"] { fill: var(--type-bg); }
#graph-view svg text { fill: var(--fg); }
#graph-view g.selected polygon, #graph-view g.selected path { stroke: var(--selected); stroke-width: 3; }
.layout { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); gap: 1rem; }
@media (max-width: 60rem) { .layout { grid-template-columns: 1fr; } }
.scroll { height: 24rem; overflow: auto; border: 1px solid var(--border); position: relative; }
table.virtual { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.virtual th { position: sticky; top: 0; background: var(--code-bg); text-align: left; z-index: 1; }
table.virtual td, table.virtual th { padding: 0 0.4rem; height: 1.75rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; border-bottom: 1px solid var(--row-border); }
table.virtual tr.spacer td { padding: 0; border: 0; height: auto; }
button.link { background: none; border: 0; padding: 0; color: var(--link); text-decoration: underline; cursor: pointer; font: inherit; }
#details { border: 1px solid var(--border); padding: 0.5rem 0.8rem; min-height: 10rem; }
#details dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.8rem; margin: 0.3rem 0; }
#details h3 { overflow-wrap: anywhere; }
#details dt { font-weight: bold; }
#details dd { margin: 0; overflow-wrap: anywhere; }
.lineage ul { list-style: none; padding-left: 1.2rem; margin: 0; border-left: 1px dotted var(--lineage); }
.lineage > ul { border: 0; padding-left: 0; }
.via { color: var(--muted); font-size: 0.85rem; }
.outcome-error { color: var(--error); font-weight: bold; }
tr.mapping td { color: var(--faint); }
@media print {
  /* On paper: every row and the whole graph, none of the controls. */
  #graph-tools, #findings-tools, button.copy, .toolbar label, .toolbar input, nav.contents { display: none !important; }
  #graph-view { height: auto; overflow: visible; border: 0; }
  #graph-view svg { height: auto; max-height: 95vh; display: block; margin: 0 auto; }
  .scroll { height: auto; overflow: visible; border: 0; }
  .layout { display: block; }
  table.virtual th { position: static; }
  table.virtual td, table.virtual th { white-space: normal; overflow-wrap: anywhere; height: auto; }
  table.virtual tr { break-inside: avoid; }
  tr.spacer { display: none; }
  pre.excerpt, pre.diff, pre.spec, pre.lineage-tree { max-height: none; overflow: visible; white-space: pre-wrap; overflow-wrap: anywhere; }
}
`;
