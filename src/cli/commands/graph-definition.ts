/**
 * `cosi graph`'s command-line definition (arguments, flags, help), apart from what runs it: the
 * program lists every command and its flags (help, completion) without loading any command.
 */
import { Command } from 'commander';
import {
  addPathArguments,
  addProjectOptions,
  collect,
  collectTypes,
  outputOption,
} from '../options.js';
import { addTraceOption } from '../trace-file.js';
import { GRAPH_FORMATS } from '../render/graph/graph-formats.js';
import { requestTimeoutOption, stateOption } from '../state-option.js';
import { DEFAULT_MAX_NODES } from '../graph-node-limit.js';

/** `cosi graph`: its commander definition. */
export function defineGraph(): Command {
  const command = new Command('graph')
    .summary('print the dependency graph of the controllers (text, tree, DOT, SVG, Mermaid, JSON)')
    .description(
      "Registers the controllers of the project's cosi.config.ts and prints what each\n" +
        'reads and writes, as `talosctl inspect dependencies` draws it: controllers are ' +
        'boxes (queue controllers rounded), resource types notes; exclusive outputs ' +
        'bold, shared outputs solid, strong and primary inputs solid, weak and mapped ' +
        'inputs dotted, destroyReady and mappedDestroyReady inputs dashed (talosctl ' +
        'omits them); an input pinned to one id has it as label. Cycles are shown, not ' +
        'refused: the text format names them, the tree marks a node met again on its ' +
        'own path "(cycle)", but a controller reached from a type it writes (it reads ' +
        'what it writes, not a loop) "(reads what it writes)".\n\n' +
        'Without --resources the controllers are registered but never run: manifests ' +
        'with errors do not hide them (the graph is printed, the findings on stderr, ' +
        'exit 1). With ' +
        '--resources the project converges first (like `cosi apply`), then every ' +
        'resource is listed under its type with the controller that wrote it (none: a ' +
        'manifest) and the resources it came from: its owner references and what the ' +
        'reconcile that wrote it really read through its inputs, at the versions read, ' +
        'labelled with the input kind (from the record of the run, as `cosi explain` ' +
        'shows it; destroyReady inputs carry no data and do not count). The tree ' +
        'format follows each resource to everything derived from it. Manifests with ' +
        'errors stop the run, not the picture: the resources that loaded are drawn, ' +
        'nothing derived from them, with the findings and a note on stderr (exit 1). ' +
        'The drawings (dot, svg, mermaid) cut a resource label longer than 64 characters ' +
        'in the middle (…); the DOT node name, the SVG tooltip and the text, tree and ' +
        'json formats keep the whole id.\n\n' +
        '-o svg lays the DOT output out in-process with Graphviz compiled to WebAssembly ' +
        '(no graphviz install needed): the same nodes, clusters and styles as `-o dot | dot ' +
        '-Tsvg`. There is no -o png: the WebAssembly Graphviz has no raster output, and ' +
        'rasterising needs a native library; convert the SVG (a browser, rsvg-convert). ' +
        "Graphviz's layout grows faster than linear, natively too (--resources on 3,000 " +
        'resources: minutes): -o svg refuses a graph of more than --max-nodes nodes ' +
        '(default 1000; exit 2); cut a large graph with --focus, -t or -c, or write -o dot.',
    );
  addTraceOption(addProjectOptions(addPathArguments(command)))
    .addOption(outputOption(GRAPH_FORMATS, 'text'))
    .option('--resources', 'converge, then show the resource instances and their lineage')
    .addOption(stateOption())
    .addOption(requestTimeoutOption())
    .option(
      '-c, --controller <name>',
      'only the graph around this controller (repeatable)',
      collect,
    )
    .option(
      '-t, --type <type>',
      'only the graph around this type, any alias (repeatable, or comma-separated)',
      collectTypes,
    )
    .option(
      '--focus <type/id>',
      'only the resources around this one (TYPE/ID or NAMESPACE/TYPE/ID, any type alias; the ID may hold a /), their types and writers; implies --resources',
    )
    .option(
      '--depth <n>',
      'hops around --controller / --type (declared edges) or --focus (lineage edges), an edge being a hop (default 1; "all": everything connected)',
    )
    .option(
      '--max-nodes <n>',
      'with -o svg: refuse (exit 2) a graph of more nodes than this, which would take minutes to lay out (0: no limit)',
      String(DEFAULT_MAX_NODES),
    )
    .addHelpText(
      'after',
      `
Examples:
  cosi graph -f manifests/
  cosi graph -f manifests/ -o svg > graph.svg
  cosi graph -f manifests/ --focus vm/web-1 --depth 2 -o svg > web-1.svg
  cosi graph -f manifests/ -o mermaid > graph.mmd
  cosi graph -f manifests/ -t vm --depth 2 -o tree
  cosi graph -f manifests/ --resources -o tree --stable

Exit codes: 0 ok, 1 invalid manifests or (with --resources) failing controllers, 2 usage or
config error, 3 (with --resources) did not converge, 70 cosi itself failed
(a bug, out of memory).`,
    );
  return command;
}
