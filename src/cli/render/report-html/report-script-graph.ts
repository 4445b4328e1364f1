/**
 * The report script's graph (a part of the one closure report-script.ts assembles): the nodes
 * made keyboard and screen-reader reachable, a click opening what a node stands for, pan and
 * zoom by pointer, keyboard, Ctrl and the wheel or the buttons, the size it opens at and the
 * whole drawing on paper. Uses the details' show functions and onPrint() from the tables' part.
 */
export const GRAPH_SCRIPT = String.raw`
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
      // At the top of its boxes, not of the drawing: Graphviz bends the lineage edges between
      // a type's resources up over them (300 resources: 1,900 points of curves and no node).
      var inverse = svg.getScreenCTM().inverse(), top = Infinity;
      svg.querySelectorAll('g.node, g.cluster').forEach(function (g) {
        var r = g.getBoundingClientRect();
        top = Math.min(top, new DOMPoint(r.left, r.top).matrixTransform(inverse).y);
      });
      top = top === Infinity ? box.y : Math.max(box.y, top - 8);
      setBox([box.x + Math.min(0, (box.width - w) / 2), top, w, view.clientHeight / scale]);
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
`;
