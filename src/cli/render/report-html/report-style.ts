/** The report's stylesheet: plain CSS, readable in light colours, no external fonts. */
export const REPORT_STYLE = `
[hidden] { display: none !important; }
:root { font-family: system-ui, sans-serif; color: #1f2328; background: #fff; }
body { margin: 0 auto; max-width: 80rem; padding: 1rem 1.5rem; line-height: 1.4; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid #d0d7de; }
code, pre, .mono { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.85rem; }
.verdict { display: inline-block; padding: 0.2rem 0.8rem; border-radius: 0.3rem; font-weight: bold; color: #fff; }
.verdict.passed { background: #1a7f37; }
.verdict.failed { background: #b3171f; }
.verdict.not-converged, .verdict.not-run { background: #7d4e00; }
.summary { margin: 0.5rem 0; }
.failures { margin: 0.5rem 0; padding: 0.3rem 0.6rem 0.3rem 1.8rem; border-left: 4px solid #b3171f; background: #ffebe9; overflow-wrap: anywhere; }
.failed-item { font-family: ui-monospace, Menlo, Consolas, monospace; }
#graph-view g.node.failed polygon, #graph-view g.node.failed path, #graph-view g.node.failed ellipse { stroke: #b3171f; stroke-width: 3; fill: #ffebe9; }
#graph-view g.node.failed text { fill: #82071e; font-weight: bold; }
tr.failed td { background: #ffebe9; }
.failed-mark { color: #b3171f; font-weight: bold; }
.failure-note { border-left: 4px solid #b3171f; padding-left: 0.5rem; color: #82071e; overflow-wrap: anywhere; }
.findings { padding-left: 1.5rem; }
/* A long pointer or message (a path 200 levels deep) wraps instead of widening the page. */
.finding p { margin: 0.2rem 0; overflow-wrap: anywhere; }
.severity { font-weight: bold; }
.severity.error { color: #b3171f; }
.severity.warning { color: #7d4e00; }
.place, .pointer { color: #3d444d; }
pre.excerpt, pre.diff, pre.spec, pre.lineage-tree { background: #f6f8fa; border: 1px solid #d0d7de; padding: 0.4rem; overflow: auto; max-height: 20rem; }
pre.excerpt mark { background: #fff1b3; display: inline-block; width: 100%; }
.ln { display: inline-block; min-width: 3rem; color: #57606a; user-select: none; }
.toolbar { display: flex; gap: 0.5rem; align-items: center; margin: 0.3rem 0; flex-wrap: wrap; }
button { font: inherit; padding: 0.1rem 0.6rem; }
#graph-view { border: 1px solid #d0d7de; height: 30rem; overflow: hidden; cursor: grab; touch-action: none; background: #fff; }
#graph-view svg { width: 100%; height: 100%; }
#graph-view g.node, #graph-view g.cluster { cursor: pointer; }
#graph-view g.selected polygon, #graph-view g.selected path { stroke: #0969da; stroke-width: 3; }
.layout { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; }
@media (max-width: 60rem) { .layout { grid-template-columns: 1fr; } }
.scroll { height: 24rem; overflow: auto; border: 1px solid #d0d7de; position: relative; }
table.virtual { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.virtual th { position: sticky; top: 0; background: #f6f8fa; text-align: left; z-index: 1; }
table.virtual td, table.virtual th { padding: 0 0.4rem; height: 1.75rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; border-bottom: 1px solid #eaeef2; }
table.virtual tr.spacer td { padding: 0; border: 0; height: auto; }
button.link { background: none; border: 0; padding: 0; color: #0550ae; text-decoration: underline; cursor: pointer; font: inherit; }
#details { border: 1px solid #d0d7de; padding: 0.5rem 0.8rem; min-height: 10rem; }
#details dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.8rem; margin: 0.3rem 0; }
#details dt { font-weight: bold; }
#details dd { margin: 0; overflow-wrap: anywhere; }
.lineage ul { list-style: none; padding-left: 1.2rem; margin: 0; border-left: 1px dotted #8c959f; }
.lineage > ul { border: 0; padding-left: 0; }
.via { color: #3d444d; font-size: 0.85rem; }
.outcome-error { color: #b3171f; font-weight: bold; }
tr.mapping td { color: #57606a; }
@media print {
  /* On paper: every row and the whole graph, none of the controls. */
  #graph-tools, .toolbar label, .toolbar input { display: none !important; }
  #graph-view { height: auto; overflow: visible; border: 0; }
  #graph-view svg { height: auto; max-height: 95vh; }
  .scroll { height: auto; overflow: visible; border: 0; }
  .layout { display: block; }
  table.virtual th { position: static; }
  table.virtual td, table.virtual th { white-space: normal; overflow-wrap: anywhere; height: auto; }
  table.virtual tr { break-inside: avoid; }
  tr.spacer { display: none; }
  pre.excerpt, pre.diff, pre.spec, pre.lineage-tree { max-height: none; overflow: visible; white-space: pre-wrap; overflow-wrap: anywhere; }
}
`;
