import { OPEN_GROUP_LIMIT } from './report-findings.js';

/**
 * The report's script, run in the browser that opens it: pan and zoom of the graph, a click on
 * a node shows its resource, controller or type; the resource table (only the rows in view are
 * in the page, so 10k resources scroll as fast as 10), its search, a resource's lineage, and
 * the run's timeline. Plain ES2020 in one closure, reading the data the page embeds. Without
 * it the verdict, findings and graph still show.
 */
export const REPORT_SCRIPT = String.raw`
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

  // Details: one resource, controller or type at a time.
  var details = document.getElementById('details');
  function showIn(heading, nodes) {
    details.replaceChildren(h('h3', { id: 'details-title' }, [heading]));
    nodes.forEach(function (n) { details.appendChild(n); });
    select(null);
  }
  function writer(r) {
    if (r.owner === '' && r.writer) return r.writer + ' (unowned)';
    if (r.owner === '') return 'manifest' + (r.source ? ' ' + r.source : '');
    return r.owner + (r.reconcile === undefined ? '' : ' reconcile #' + r.reconcile);
  }
  // A resource's lineage as cosi explain -o tree prints it: the embedded graph of versions
  // (app/report/report-lineage.ts) unfolded from the resource's last version, cut at a version
  // met again on its own path; at most LINES lines, each version a link to its resource.
  var LINES = 200;
  var graph = data.lineage;
  function versionText(v) {
    var p = graph.pointers[v[0]];
    var i = byKey.get(p[0] + '/' + p[1] + '/' + p[2]);
    var scoped = i !== undefined && resources[i].clusterScoped;
    return p[1] + '(' + (scoped ? p[2] : p[0] + '/' + p[2]) + ')@' + v[1];
  }
  function originText(o) {
    if (o.length === 0) return '<- (not in the record)';
    if (o[0] === 0) return '<- manifest';
    if (o[0] === 1) return '<- manifest ' + graph.files[o[1]] + ':' + o[2] + ':' + o[3];
    return '<- ' + graph.controllers[o[1]] + ' reconcile #' + o[2];
  }
  function versionLine(lines, at, lead, cycle) {
    var v = graph.versions[at];
    var p = graph.pointers[v[0]];
    var key = p[0] + '/' + p[1] + '/' + p[2];
    var ref = byKey.has(key)
      ? h('button', { type: 'button', class: 'link', onclick: function () { showResource(byKey.get(key)); } }, [versionText(v)])
      : versionText(v);
    lines.appendChild(h('span', { class: 'lineage-line' }, [lead, ref, '  ' + originText(v[2]) + (cycle ? '  (cycle)' : '')]));
    lines.appendChild(document.createTextNode('\n'));
  }
  function lineageTree(root) {
    var lines = h('pre', { class: 'lineage-tree', tabindex: '0' });
    var count = 0, cut = false, path = new Set();
    function walk(at, prefix) {
      var edges = graph.versions[at][3];
      path.add(at);
      for (var e = 0; e < edges.length && !cut; e += 2) {
        if (count >= LINES) { cut = true; break; }
        var last = e === edges.length - 2, parent = edges[e + 1];
        var cycle = path.has(parent);
        count++;
        versionLine(lines, parent, prefix + (last ? '\u2514\u2500 ' : '\u251c\u2500 ') + graph.kinds[edges[e]] + ': ', cycle);
        if (!cycle) walk(parent, prefix + (last ? '   ' : '\u2502  '));
      }
      path.delete(at);
    }
    count++;
    versionLine(lines, root, '', false);
    walk(root, '');
    var out = [lines];
    if (cut) out.push(h('p', { class: 'cut' }, ['cut here: ' + LINES + ' lines shown; cosi explain prints the whole tree']));
    if (graph.truncated) out.push(h('p', {}, ['note: history truncated: the record dropped its oldest reconciles']));
    return out;
  }
  // A definition document (a CRD, a kro RGD): what it is, where, and the type it defines,
  // which the graph draws and the table lists the resources of.
  function showDefinition(r, clear) {
    var defines = r.definition.defines;
    var nodes = [definitionList([['type', r.type], ['name', r.id], ['written by', writer(r)], ['defines', defines]])];
    nodes.push(h('p', { class: 'definition-note' }, defines
      ? ['A definition, not a resource of the world: it defines the type ' + defines + '. ',
        h('button', { type: 'button', class: 'link', onclick: function () { showType(defines); } }, ['list its resources'])]
      : ['A definition, not a resource of the world.']));
    showIn(label(r), nodes);
    if (defines) select(nodesByTitle.has('cluster_' + defines) ? 'cluster_' + defines : 'type:' + defines);
    chooseRow(r.key, clear);
  }
  function showResource(i, clear) {
    var r = resources[i];
    if (r.definition) return showDefinition(r, clear);
    var nodes = [definitionList([
      ['namespace', r.clusterScoped ? '(none: cluster-scoped)' : r.namespace], ['type', r.type], ['id', r.id], ['version', String(r.version)],
      ['written by', writer(r)], ['phase', r.phase],
      ['labels', r.labels ? Object.keys(r.labels).map(function (k) { return k + '=' + r.labels[k]; }).join(', ') : ''],
    ])];
    if (r.failure) {
      nodes.push(h('p', { class: 'failure-note' }, ['failed: ' + r.failure.controller + ' gave up on it after ' + r.failure.attempts + ' attempts: ' + r.failure.error]));
    }
    var from = h('div', { class: 'lineage' }, [h('h4', {}, ['Lineage (where it came from)'])]);
    (r.lineage === undefined ? [h('p', {}, ['The run was not recorded.'])] : lineageTree(r.lineage)).forEach(function (n) { from.appendChild(n); });
    nodes.push(from);
    if (derived[i].length) {
      var to = h('ul');
      derived[i].forEach(function (d) { to.appendChild(h('li', {}, [link(d[0]), h('span', { class: 'via' }, [' ' + d[1]])])); });
      nodes.push(h('div', { class: 'lineage' }, [h('h4', {}, ['Led to']), to]));
    }
    var spec = r.spec === undefined ? '(sensitive: not shown)' : JSON.stringify(r.spec, null, 2);
    nodes.push(h('h4', {}, ['Spec']), h('pre', { class: 'spec', tabindex: '0' }, [spec.length > 20000 ? spec.slice(0, 20000) + '\u2026' : spec]));
    showIn(label(r), nodes);
    // Above MAX_DRAWN_RESOURCES the graph draws types, not resources: its type is marked.
    select(nodesByTitle.has('resource:' + r.key) ? 'resource:' + r.key : 'type:' + r.type);
    chooseRow(r.key, clear);
  }
  function showController(name) {
    var c = controllers.get(name);
    var edges = data.graph.edges.filter(function (e) { return e.controller === name; });
    // A kro RGD's controller writes only the status of the instances it reads (as cosi graph says).
    var dag = (data.resourceGraphs || []).filter(function (d) { return d.controller === name; })[0];
    var list = h('ul');
    edges.forEach(function (e) {
      var status = dag && e.type === dag.instanceType && e.kind !== 'primary';
      list.appendChild(h('li', {}, [(status ? 'status' : e.kind) + ' ' + (e.namespace ? e.namespace + '/' : '') + e.type + (e.id ? '/' + e.id : '') + (status ? ' (of the instances it reads)' : '')]));
    });
    var renders = [];
    if (dag) {
      var order = h('ol');
      dag.resources.forEach(function (r) {
        var notes = (r.dependsOn.length ? ['after ' + r.dependsOn.join(', ')] : []).concat(r.notes);
        order.appendChild(h('li', {}, [r.id + ' ' + r.type + (notes.length ? ' (' + notes.join('; ') + ')' : '')]));
      });
      renders = [h('h4', {}, ['Renders, in order']), order];
    }
    showIn('controller ' + name, [
      definitionList(c ? [['kind', c.kind === 'qcontroller' ? 'queue controller' : 'controller'], ['condition', c.condition],
        ['reconciles', String(c.reconciles)], ['writes', String(c.writes)], ['errors', String(c.errors)], ['last error', c.lastError]] : []),
      h('h4', {}, ['Reads and writes']), list,
    ].concat(renders));
    select('controller:' + name);
  }
  // A type (and namespace) clicked in the graph: the table lists exactly its resources, not
  // those whose name merely contains it (Configs is in NetworkConfigs).
  var only = null;
  function showType(type, namespace) {
    only = { type: type, namespace: namespace };
    search.value = '';
    var count = filter();
    var all = h('button', { type: 'button', class: 'link', onclick: function () { only = null; filter(); } }, ['list every resource']);
    showIn('type ' + type + (namespace === undefined ? '' : ' in ' + namespace), [
      h('p', {}, [count + (count === 1 ? ' resource' : ' resources') + ': listed in the table; ', all]),
    ]);
    select('type:' + type);
  }

  // The graph: pan by dragging, zoom with Ctrl and the wheel or the buttons, click a node.
  var view = document.getElementById('graph-view');
  var svg = view && view.querySelector('svg');
  var nodesByTitle = new Map();
  function select(key) {
    nodesByTitle.forEach(function (g) { g.classList.remove('selected'); });
    if (!key || !nodesByTitle.has(key)) return;
    var g = nodesByTitle.get(key);
    g.classList.add('selected');
    // Chosen in the table or a lineage link: shown where it is drawn, not left out of view.
    reveal(g);
  }
  // Pans the graph so that a node (or a type's box) is in the part shown, when it is not: the
  // browser scrolls a focused element into view, but it cannot move an SVG's viewBox, so a node
  // reached with Tab or chosen in the table was marked where no one saw it. Centred when it
  // fits the box, else its top left corner shown; the zoom stays.
  function reveal(g) {
    if (!svg) return;
    var v = view.getBoundingClientRect(), r = g.getBoundingClientRect();
    if (v.width === 0 || v.height === 0) return;
    var margin = 16;
    function shift(lo, hi, from, to) {
      if (lo >= from && hi <= to) return 0;
      if (hi - lo + 2 * margin <= to - from) return (lo + hi - from - to) / 2;
      return lo - from - margin;
    }
    var dx = shift(r.left, r.right, v.left, v.right), dy = shift(r.top, r.bottom, v.top, v.bottom);
    if (dx === 0 && dy === 0) return;
    // Screen pixels per unit of the viewBox (the same across and down: the drawing keeps its ratio).
    var scale = svg.getScreenCTM().a;
    var b = svg.getAttribute('viewBox').split(' ').map(Number);
    setBox([b[0] + dx / scale, b[1] + dy / scale, b[2], b[3]]);
  }
  // The key of a node or cluster: its id carries it in hex (graph/svg-key-id.ts), exactly,
  // where its <title> may not (Graphviz keeps a name's doubled backslash, reads &amp; as &).
  var utf8 = new TextDecoder();
  function keyOf(g) {
    if (g.id.indexOf('cosi-') === 0) {
      var hex = g.id.slice(5), bytes = new Uint8Array(hex.length / 2);
      for (var i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
      return utf8.decode(bytes);
    }
    var t = g.querySelector('title');
    return t ? t.textContent : null;
  }
  // A node's accessible name says what it stands for, whole, then what it is: a resource with
  // its type (VMs, Placements and NetworkConfigs all draw a default/db-1), a type's box as the
  // type (and namespace), a controller or type note as the text it shows.
  function accessibleName(key, g) {
    if (key.indexOf('resource:') === 0 && byKey.has(key.slice(9))) return label(resources[byKey.get(key.slice(9))]) + ' (resource)';
    if (key.indexOf('cluster_') === 0) {
      var name = key.slice(8), slash = name.lastIndexOf('/');
      return (slash < 0 ? name : name.slice(0, slash) + ' in ' + name.slice(slash + 1)) + ' (type)';
    }
    var shown = Array.prototype.map.call(g.querySelectorAll('text'), function (t) { return t.textContent; }).join(' ');
    // A kro RGD's render order: its box (rgd:CONTROLLER) and resources (rgd:CONTROLLER/ID),
    // each named by all it shows (id, kind, includeWhen), as a screen reader and speech input need.
    if (key.indexOf('rgd:') === 0) {
      var rgd = key.slice(4), cut = rgd.indexOf('/');
      if (cut < 0) return rgd + ': resources in render order';
      return shown + ' (template of ' + rgd.slice(0, cut) + ')';
    }
    var colon = key.indexOf(':');
    return colon < 0 ? shown : shown + ' (' + key.slice(0, colon) + ')';
  }
  function open(title) {
    if (title.indexOf('resource:') === 0 && byKey.has(title.slice(9))) showResource(byKey.get(title.slice(9)));
    else if (title.indexOf('controller:') === 0) showController(title.slice(11));
    else if (title.indexOf('rgd:') === 0) {
      var rgd = title.slice(4), cut = rgd.indexOf('/');
      showController(cut < 0 ? rgd : rgd.slice(0, cut));
    }
    else if (title.indexOf('type:') === 0) showType(title.slice(5));
    else if (title.indexOf('cluster_') === 0) {
      // cluster_TYPE, or cluster_TYPE/NAMESPACE for a type's namespace box.
      var name = title.slice(8), slash = name.lastIndexOf('/');
      if (slash < 0) showType(name);
      else showType(name.slice(0, slash), name.slice(slash + 1));
    }
  }
  if (svg) {
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    var box = svg.viewBox.baseVal;
    // The whole drawing (printed), and what Reset shows: the same, or a small one at its size.
    var whole = [box.x, box.y, box.width, box.height];
    var home = whole;
    var setBox = function (b) { svg.setAttribute('viewBox', b.join(' ')); };
    var zoom = function (factor, cx, cy) {
      var b = svg.getAttribute('viewBox').split(' ').map(Number);
      var w = b[2] * factor, hh = b[3] * factor;
      setBox([cx - (cx - b[0]) * factor, cy - (cy - b[1]) * factor, w, hh]);
    };
    var center = function () { var b = svg.getAttribute('viewBox').split(' ').map(Number); return [b[0] + b[2] / 2, b[1] + b[3] / 2]; };
    svg.querySelectorAll('g.node, g.cluster').forEach(function (g) {
      var title = keyOf(g);
      if (title === null) return;
      nodesByTitle.set(title, g);
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', accessibleName(title, g) + (g.classList.contains('failed') ? ', failed' : ''));
      g.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(title); } });
      // Reached with the keyboard (a click focuses it too, where it already shows: left as it is).
      g.addEventListener('focus', function () { if (g.matches(':focus-visible')) reveal(g); });
    });
    var drag = null;
    view.addEventListener('pointerdown', function (e) { drag = { x: e.clientX, y: e.clientY, moved: false }; });
    view.addEventListener('pointermove', function (e) {
      if (!drag || e.buttons === 0) return;
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      drag.moved = true;
      var b = svg.getAttribute('viewBox').split(' ').map(Number);
      var scale = b[2] / view.clientWidth;
      setBox([b[0] - dx * scale, b[1] - dy * scale, b[2], b[3]]);
      drag.x = e.clientX; drag.y = e.clientY;
    });
    view.addEventListener('click', function (e) {
      var moved = drag && drag.moved;
      drag = null;
      if (moved) return;
      var g = e.target.closest('g.node, g.cluster');
      var key = g && keyOf(g);
      if (key) open(key);
    });
    // The keyboard's pan and zoom, on the graph itself (focused, not on one of its nodes):
    // arrows move a tenth of the view, + and - zoom on its centre, 0 resets.
    view.addEventListener('keydown', function (e) {
      if (e.target !== view) return;
      var b = svg.getAttribute('viewBox').split(' ').map(Number);
      var step = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] }[e.key];
      var c = center();
      if (step) setBox([b[0] + step[0] * b[2], b[1] + step[1] * b[3], b[2], b[3]]);
      else if (e.key === '+' || e.key === '=') zoom(0.8, c[0], c[1]);
      else if (e.key === '-') zoom(1.25, c[0], c[1]);
      else if (e.key === '0') setBox(home);
      else return;
      e.preventDefault();
    });
    // Ctrl (or Cmd) and the wheel zoom, as a pinch on a touchpad does (the browser sends it as
    // a wheel with ctrlKey); the wheel alone scrolls the page, as everywhere else on it: taken
    // for a zoom, it trapped a reader scrolling down past the graph, which spans the page's width.
    view.addEventListener('wheel', function (e) {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      var pt = svg.createSVGPoint(); pt.x = e.clientX; pt.y = e.clientY;
      var p = pt.matrixTransform(svg.getScreenCTM().inverse());
      zoom(e.deltaY < 0 ? 0.8 : 1.25, p.x, p.y);
    }, { passive: false });
    document.getElementById('zoom-in').addEventListener('click', function () { var c = center(); zoom(0.8, c[0], c[1]); });
    document.getElementById('zoom-out').addEventListener('click', function () { var c = center(); zoom(1.25, c[0], c[1]); });
    document.getElementById('zoom-reset').addEventListener('click', function () { setBox(home); });
    document.getElementById('graph-tools').hidden = false;
    // A drawing far taller or wider than the box (a few hundred resources side by side), fitted
    // whole, shrinks its labels to a sliver no one reads: it opens at a size that reads (14pt
    // labels at READABLE or more), at its top, centred across; Reset shows it whole.
    // A small one (three nodes), fitted, would be blown up to labels of 40 px: it opens at the
    // size Graphviz draws it (NATURAL: its points at 96 px to the inch), centred.
    var READABLE = 0.6, NATURAL = 4 / 3;
    var fit = Math.min(view.clientWidth / box.width, view.clientHeight / box.height);
    if (fit > NATURAL && view.clientWidth > 0) {
      var cw = view.clientWidth / NATURAL, ch = view.clientHeight / NATURAL;
      home = [box.x - (cw - box.width) / 2, box.y - (ch - box.height) / 2, cw, ch];
      setBox(home);
    } else if (fit < READABLE && view.clientWidth > 0) {
      var scale = Math.max(READABLE, Math.min(1, view.clientWidth / box.width));
      var w = view.clientWidth / scale;
      setBox([box.x + Math.min(0, (box.width - w) / 2), box.y, w, view.clientHeight / scale]);
      document.getElementById('graph-part').hidden = false;
    }
    // Printed, the whole graph, however it was panned and zoomed on screen.
    var onScreen = null;
    // On paper no wider than Graphviz draws it either: a small graph is not blown up to the page.
    onPrint(function () {
      if (onScreen === null) onScreen = svg.getAttribute('viewBox');
      setBox(whole);
      svg.style.maxWidth = whole[2] * NATURAL + 'px';
    }, function () {
      if (onScreen !== null) svg.setAttribute('viewBox', onScreen);
      onScreen = null;
      svg.style.maxWidth = '';
    });
  }

  // Calls before() when the page is about to be printed (the print dialog, Save as PDF, or
  // print media emulated), after() when it is back on screen.
  function onPrint(before, after) {
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    var media = window.matchMedia('print');
    media.addEventListener('change', function (e) { if (e.matches) before(); else after(); });
    if (media.matches) before();
  }

  // A table of which only the rows in view are in the page.
  function virtualTable(scroller, body, columns, rowOf) {
    var rowHeight = 28, rows = [], made = new Map();
    function spacer() {
      return h('tr', { class: 'spacer', 'aria-hidden': 'true' }, [h('td', { colspan: String(columns) })]);
    }
    var top = spacer(), bottom = spacer();
    body.replaceChildren(top, bottom);
    // The rows in view and a margin around them are in the page. A row that stays in range
    // stays the same element, so the row a Tab focused (and the browser scrolled to) keeps its
    // focus while the rows around it change: rebuilt, it lost focus to the page.
    function draw(reset) {
      var first = Math.max(0, Math.floor(scroller.scrollTop / rowHeight) - 10);
      var last = Math.min(rows.length, first + Math.ceil(scroller.clientHeight / rowHeight) + 20);
      made.forEach(function (tr, n) {
        if (reset || n < first || n >= last) { tr.remove(); made.delete(n); }
      });
      var before = bottom;
      for (var n = last - 1; n >= first; n--) {
        var tr = made.get(n);
        if (!tr) { tr = rowOf(rows[n]); made.set(n, tr); body.insertBefore(tr, before); }
        before = tr;
      }
      top.firstChild.style.height = first * rowHeight + 'px';
      bottom.firstChild.style.height = (rows.length - last) * rowHeight + 'px';
    }
    // Printed (or saved as PDF), every row is in the page: the print style lets the table run
    // over as many pages as it takes, instead of a box showing the rows in view.
    var printing = false;
    function drawAll() {
      if (printing) return;
      printing = true;
      made.forEach(function (tr) { tr.remove(); });
      made.clear();
      var all = document.createDocumentFragment();
      rows.forEach(function (row, n) { var tr = rowOf(row); made.set(n, tr); all.appendChild(tr); });
      body.insertBefore(all, bottom);
      top.firstChild.style.height = '0px';
      bottom.firstChild.style.height = '0px';
    }
    function drawInView() {
      if (!printing) return;
      printing = false;
      draw(true);
    }
    onPrint(drawAll, drawInView);
    scroller.addEventListener('scroll', function () { requestAnimationFrame(function () { if (!printing) draw(false); }); });
    var set = function (next) { rows = next; scroller.scrollTop = 0; if (printing) { printing = false; drawAll(); } else draw(true); };
    // Scrolls row n into view, in the middle, when it is not (the header takes a row's height).
    set.reveal = function (n) {
      var y = n * rowHeight;
      if (y >= scroller.scrollTop && y + 2 * rowHeight <= scroller.scrollTop + scroller.clientHeight) return;
      scroller.scrollTop = Math.max(0, y - scroller.clientHeight / 2);
      draw(false);
    };
    return set;
  }
  // Sizes a table's columns for their text: each as wide as its longest (measured in the cells'
  // font, from the few longest of each column, so a pass over the rows is all it costs). When
  // they do not all fit the box, the widest give way first, down to the width of the next
  // widest, so the narrow columns stay whole and only the longest texts end in an ellipsis
  // (their whole text is the cell's title). Again as the box is resized; on screen only:
  // printed, the page's widths and wrapping apply.
  var fitted = 0;
  function fitColumns(scroller, texts) {
    var table = scroller.querySelector('table');
    var headers = table.querySelectorAll('th');
    var style = getComputedStyle(headers[0]);
    var font = getComputedStyle(table).font;
    var context = document.createElement('canvas').getContext('2d');
    var padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 2;
    var needed = texts.map(function (column, c) {
      context.font = style.font;
      var widest = context.measureText(headers[c].textContent).width;
      context.font = font;
      longest(column, 8).forEach(function (text) { widest = Math.max(widest, context.measureText(text).width); });
      return Math.ceil(widest + padding);
    });
    table.id = table.id || 'fitted-' + (++fitted);
    var sheet = h('style', {}, []);
    document.head.appendChild(sheet);
    var room = -1;
    function apply() {
      var width = scroller.clientWidth;
      if (width === room || width === 0) return;
      room = width;
      var widths = giveWay(needed, width);
      sheet.textContent = '@media screen { ' + widths.map(function (w, c) {
        return '#' + table.id + ' col:nth-child(' + (c + 1) + ') { width: ' + w + 'px !important; }';
      }).join(' ') + ' }';
    }
    apply();
    if (typeof ResizeObserver === 'function') new ResizeObserver(apply).observe(scroller);
  }
  // The widths, the widest cut to one cap so that together they take at most the room.
  function giveWay(needed, room) {
    var total = needed.reduce(function (a, b) { return a + b; }, 0);
    if (total <= room) return needed;
    var sorted = needed.slice().sort(function (a, b) { return b - a; });
    var cap = sorted[0], over = total - room;
    for (var k = 1; k <= sorted.length && over > 0; k++) {
      var next = k < sorted.length ? sorted[k] : 0;
      var step = Math.min((cap - next) * k, over);
      cap -= step / k;
      over -= step;
    }
    return needed.map(function (w) { return Math.floor(Math.min(w, cap)); });
  }
  // The count longest strings of a list, in one pass.
  function longest(list, count) {
    var kept = [];
    for (var i = 0; i < list.length; i++) {
      var text = list[i];
      if (kept.length === count && text.length <= kept[count - 1].length) continue;
      var at = kept.length;
      while (at > 0 && kept[at - 1].length < text.length) at--;
      kept.splice(at, 0, text);
      if (kept.length > count) kept.pop();
    }
    return kept;
  }
  // A cell cut short by its column shows the whole text on hover.
  function cell(content) { return h('td', typeof content === 'string' ? { title: content } : {}, [content]); }

  var search = document.getElementById('search');
  var shown = document.getElementById('shown');
  var setRows = virtualTable(document.getElementById('resource-scroll'), document.getElementById('resource-rows'), 5, function (i) {
    var r = resources[i];
    var id = h('button', { type: 'button', class: 'link', onclick: function () { showResource(i); } }, [r.id]);
    // A resource a controller gave up on says so in words, not only in colour.
    // The id is a button, not text: its cell is given the whole id to show once cut short.
    var idCell = r.failure ? h('td', { title: r.id + ': failed' }, [id, ' ', h('span', { class: 'failed-mark' }, ['failed'])]) : h('td', { title: r.id }, [id]);
    return mark(h('tr', r.failure ? { 'data-key': r.key, class: 'failed' } : { 'data-key': r.key }, [cell(r.clusterScoped ? '' : r.namespace), cell(r.type), idCell, cell(String(r.version)), cell(ownerText(r))]));
  });
  // The resource the details show is marked in the table too, and scrolled to when out of view;
  // chosen from a finding (clear), a search or type that hides it is cleared first.
  var chosen = null, tableRows = [];
  function mark(tr) {
    var on = tr.getAttribute('data-key') === chosen;
    tr.classList.toggle('chosen', on);
    if (on) tr.setAttribute('aria-current', 'true'); else tr.removeAttribute('aria-current');
    return tr;
  }
  function chooseRow(key, clear) {
    chosen = key;
    document.querySelectorAll('#resource-rows tr[data-key]').forEach(mark);
    var at = tableRows.indexOf(byKey.get(key));
    if (at < 0 && clear) { only = null; search.value = ''; filter(); at = tableRows.indexOf(byKey.get(key)); }
    if (at >= 0) setRows.reveal(at);
  }
  function filter() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var rows = [];
    for (var i = 0; i < resources.length; i++) {
      var r = resources[i], hay = r.haystack, ok = true;
      if (only && (r.type !== only.type || (only.namespace !== undefined && r.namespace !== only.namespace))) continue;
      for (var w = 0; w < words.length && ok; w++) ok = hay.indexOf(words[w]) >= 0;
      if (ok) rows.push(i);
    }
    shown.textContent = rows.length + ' of ' + resources.length + ' resources' + (only ? ' (type ' + only.type + (only.namespace === undefined ? '' : ' in ' + only.namespace) + ')' : '');
    tableRows = rows;
    setRows(rows);
    return rows.length;
  }
  function ownerText(r) { return r.owner || (r.writer ? r.writer + ' (unowned)' : 'manifest'); }
  search.addEventListener('input', function () { only = null; filter(); });
  document.getElementById('resources-ui').hidden = false;
  // Measured shown: a hidden box has no width to fit.
  fitColumns(document.getElementById('resource-scroll'), [
    resources.map(function (r) { return r.clusterScoped ? '' : r.namespace; }),
    resources.map(function (r) { return r.type; }),
    resources.map(function (r) { return r.failure ? r.id + ' failed' : r.id; }),
    resources.map(function (r) { return String(r.version); }),
    resources.map(ownerText),
  ]);
  filter();
  findingsUi();

  if (data.timeline && document.getElementById('timeline-scroll')) {
    var entries = data.timeline.entries;
    var itemText = function (e) { return e.mapping ? 'mapping ' + (e.item || '') : (e.item || ''); };
    var outcomeText = function (e) { return e.outcome + (e.error ? ': ' + e.error : ''); };
    var setTimeline = virtualTable(document.getElementById('timeline-scroll'), document.getElementById('timeline-rows'), 6, function (e) {
      // A mapping (mapInput) is a row of its own, said so, not a reconcile of the item.
      return h('tr', e.mapping ? { class: 'mapping' } : {}, [cell(String(e.seq)), cell('+' + e.at + ' ms'), cell(e.controller), cell(itemText(e)),
        h('td', { class: e.outcome === 'error' ? 'outcome-error' : '', title: e.error || '' }, [outcomeText(e)]), cell(String(e.writes))]);
    });
    document.getElementById('timeline-ui').hidden = false;
    fitColumns(document.getElementById('timeline-scroll'), [
      entries.map(function (e) { return String(e.seq); }),
      entries.map(function (e) { return '+' + e.at + ' ms'; }),
      entries.map(function (e) { return e.controller; }),
      entries.map(itemText),
      entries.map(outcomeText),
      entries.map(function (e) { return String(e.writes); }),
    ]);
    setTimeline(entries);
  }
  // The findings: filtered by severity and text, folded by code, each place copied with a
  // button, and a finding about a resource opening it in the details, the table and the graph.
  function findingsUi() {
    var tools = document.getElementById('findings-tools');
    if (!tools) return;
    var groups = Array.prototype.slice.call(document.querySelectorAll('details.finding-group'));
    var items = groups.map(function (g) {
      return Array.prototype.map.call(g.querySelectorAll('li.finding'), function (li) {
        var head = li.querySelector('p.heading'), message = li.querySelector('p.message');
        var text = (head ? head.textContent : '') + ' ' + (message ? message.textContent : '');
        return { li: li, severity: li.getAttribute('data-severity'), text: text.toLowerCase() };
      });
    });
    var total = items.reduce(function (n, list) { return n + list.length; }, 0);
    var severity = document.getElementById('finding-severity');
    var words = document.getElementById('finding-search');
    var counted = document.getElementById('findings-shown');
    function count(n) { return n + (n === 1 ? ' finding' : ' findings'); }
    function filterFindings() {
      var want = severity.value, terms = words.value.toLowerCase().split(/\s+/).filter(Boolean), seen = 0;
      groups.forEach(function (g, k) {
        var n = 0;
        items[k].forEach(function (it) {
          var ok = (!want || it.severity === want) && terms.every(function (t) { return it.text.indexOf(t) >= 0; });
          it.li.hidden = !ok;
          if (ok) n++;
        });
        g.hidden = n === 0;
        var badge = g.querySelector('.group-count'), all = badge.getAttribute('data-count');
        badge.textContent = String(n) === all ? all : n + ' of ' + all;
        // What a search finds is shown, when it is a few.
        if (terms.length > 0 && n > 0 && n <= ${OPEN_GROUP_LIMIT}) g.open = true;
        seen += n;
      });
      counted.textContent = seen === total ? count(total) : seen + ' of ' + count(total) + ' shown';
    }
    severity.addEventListener('change', filterFindings);
    words.addEventListener('input', filterFindings);
    function fold(open) { groups.forEach(function (g) { if (!g.hidden) g.open = open; }); }
    document.getElementById('findings-open').addEventListener('click', function () { fold(true); });
    document.getElementById('findings-close').addEventListener('click', function () { fold(false); });
    document.querySelectorAll('li.finding .place.file').forEach(function (p) {
      var text = p.textContent;
      p.after(' ', h('button', { type: 'button', class: 'copy', 'data-copy': text, 'aria-label': 'Copy ' + text, title: 'Copy ' + text }, ['Copy']));
    });
    document.getElementById('finding-groups').addEventListener('click', function (e) {
      var button = e.target.closest('button.copy');
      if (button) {
        copyText(button.getAttribute('data-copy')).then(function () { button.textContent = 'Copied'; }, function () { button.textContent = 'Select and copy'; });
        return;
      }
      var link = e.target.closest('a.resource-link');
      if (!link || !byKey.has(link.getAttribute('data-key'))) return;
      e.preventDefault();
      showResource(byKey.get(link.getAttribute('data-key')), true);
      document.getElementById('resources-title').scrollIntoView();
      var title = document.getElementById('details-title');
      title.setAttribute('tabindex', '-1');
      title.focus({ preventScroll: true });
    });
    // A link to a finding in a folded group (report.html#finding-300) opens the group.
    function openTarget() {
      var id = decodeURIComponent(location.hash.slice(1));
      var target = id && document.getElementById(id);
      var group = target && target.closest('details');
      if (group && !group.open) { group.open = true; target.scrollIntoView(); }
    }
    window.addEventListener('hashchange', openTarget);
    openTarget();
    // Printed: every finding, the folded groups opened for the paper and folded again after.
    var folded = null;
    onPrint(function () {
      if (folded === null) folded = groups.filter(function (g) { return !g.open; });
      folded.forEach(function (g) { g.open = true; });
    }, function () {
      (folded || []).forEach(function (g) { g.open = false; });
      folded = null;
    });
    tools.hidden = false;
    filterFindings();
  }
  // The clipboard (a page opened from a file is a secure context), else the selection's copy.
  function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = h('textarea', { readonly: '', 'aria-hidden': 'true', style: 'position:fixed;left:-10000px' }, [text]);
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand('copy');
      area.remove();
      if (ok) resolve(); else reject(new Error('copy refused'));
    });
  }
  }
})();
`;
