import { DETAILS_SCRIPT } from './report-script-details.js';
import { FINDINGS_SCRIPT } from './report-script-findings.js';
import { GRAPH_SCRIPT } from './report-script-graph.js';
import { TABLES_SCRIPT } from './report-script-tables.js';

/**
 * The report's script, run in the browser that opens it: pan and zoom of the graph, a click on
 * a node shows its resource, controller or type; the resource table (only the rows in view are
 * in the page, so 10k resources scroll as fast as 10), its search, a resource's lineage, and
 * the run's timeline. Plain ES2020 in one closure, reading the data the page embeds. Without
 * it the verdict, findings and graph still show.
 *
 * Here the closure's opening (the data inflated, indexed, and the DOM helpers every part uses)
 * and its end; its parts, in the order they stand in the page, are the details
 * (report-script-details.ts), the graph (report-script-graph.ts), the tables and the print
 * hook (report-script-tables.ts) and the findings (report-script-findings.ts). They share the
 * closure's names, as one script.
 */
export const REPORT_SCRIPT =
  String.raw`
(function () {
  'use strict';
  // The data is gzipped JSON in base64 (see embedded-data.ts): inflate it, then draw.
  var packed = atob(document.getElementById('report-data').textContent.trim());
  var bytes = new Uint8Array(packed.length);
  for (var b = 0; b < packed.length; b++) bytes[b] = packed.charCodeAt(b);
  var inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  new Response(inflated).text().then(function (text) { start(JSON.parse(text)); }).catch(function (error) {
    document.getElementById('details').textContent = 'This browser could not read the report data: ' + error;
  });

  function start(data) {
  var resources = data.resources;
  var byKey = new Map();
  var derived = resources.map(function () { return []; });
  resources.forEach(function (r, i) {
    byKey.set(r.key, i);
    // The names the page shows (NAMESPACE/ID in the graph, TYPE(NAMESPACE/ID) in the lineage
    // and in every cosi output), so that one pasted from them finds its resource. A
    // cluster-scoped one is in no namespace: "default" does not find it.
    var ns = r.clusterScoped ? '' : r.namespace + '/';
    r.haystack = (ns + r.type + '/' + r.id + ' ' + r.type + '(' + place(r) + ') ' + r.owner).toLowerCase();
  });
  resources.forEach(function (r, i) {
    r.from.forEach(function (f) { derived[f[0]].push([i, f[1]]); });
  });
  var controllers = new Map(data.controllers.map(function (c) { return [c.name, c]; }));

  function h(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'onclick') node.addEventListener('click', attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }
  // A cluster-scoped kind's object is kept in namespace default but is in none: NAME alone.
  function place(r) { return r.clusterScoped ? r.id : r.namespace + '/' + r.id; }
  function label(r) { return r.type + ' ' + place(r); }
  function link(i) {
    return h('button', { type: 'button', class: 'link', onclick: function () { showResource(i); } }, [label(resources[i])]);
  }
  function definitionList(pairs) {
    var dl = h('dl');
    pairs.forEach(function (p) {
      if (p[1] === undefined || p[1] === '') return;
      dl.appendChild(h('dt', {}, [p[0]]));
      dl.appendChild(h('dd', {}, [typeof p[1] === 'string' ? p[1] : p[1]]));
    });
    return dl;
  }
` +
  DETAILS_SCRIPT +
  GRAPH_SCRIPT +
  TABLES_SCRIPT +
  FINDINGS_SCRIPT +
  String.raw`
  }
})();
`;
