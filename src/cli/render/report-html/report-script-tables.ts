/**
 * The report script's tables (a part of the one closure report-script.ts assembles): the print
 * hook every part uses, a virtual table of which only the rows in view are in the page, its
 * columns fitted to their text, the resource table with its search and the chosen row, and
 * the run's timeline. Uses the details' showResource() and the findings' findingsUi().
 */
export const TABLES_SCRIPT = String.raw`
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
  }`;
