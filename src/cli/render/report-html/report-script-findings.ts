import { OPEN_GROUP_LIMIT } from './report-findings.js';

/**
 * The report script's findings (a part of the one closure report-script.ts assembles): filtered
 * by severity and text, folded by code, each place copied with a button, a finding about a
 * resource opening it in the details, the table and the graph, and the folded groups opened
 * for the paper.
 */
export const FINDINGS_SCRIPT = String.raw`
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
  }`;
