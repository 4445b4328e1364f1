/**
 * The report script's details panel (a part of the one closure report-script.ts assembles): a
 * resource (its lineage tree as cosi explain -o tree prints it, what it led to, its spec), a
 * definition, a controller (what it reads and writes, a kro RGD's render order) or a type
 * clicked in the graph. Uses the closure's data and h() from report-script.ts, select() from
 * the graph's part and the table's filter() and chooseRow().
 */
export const DETAILS_SCRIPT = String.raw`
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
`;
