/* kvscope report: table sorting and the full VMI list.  The summary and
 * the problems read the same without it.  Compiled into the binary,
 * allowed by a hash in the Content-Security-Policy; it reads only the
 * page itself (the list's rows are the JSON of #vmi-data) and writes no
 * markup (textContent only; names in <bdi>).
 *
 * The list shows PAGE rows at a time, filtered by verdict, namespace,
 * node, code and group, searched by name (debounced), sorted by any
 * column; the view is kept in the address by name, stable across
 * reports (#vms?verdict=no-target&ns=prod&node=w1&q=db; a group by
 * its code and subject, group=no-cpu-target:EPYC-Genoa, or its id G4 in
 * this report; an old numeric index still reads), an unknown name is
 * said as such,
 * and #vmi-<namespace>-<name> opens the page of that VMI and marks it. */
(function () {
  "use strict";
  var PAGE = 200, each = Array.prototype.forEach;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function key(cell) {
    var s = cell.getAttribute("data-sort");
    if (s === null) s = cell.textContent.trim();
    var n = Number(s);
    return s !== "" && !isNaN(n) ? n : s.toLowerCase();
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    each.call(th.parentNode.cells, function (c) { c.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    rows.sort(function (a, b) {
      var x = key(a.cells[col]), y = key(b.cells[col]);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  function sortable(th, fn) {
    th.classList.add("sortable");
    th.tabIndex = 0;
    th.addEventListener("click", fn);
    th.addEventListener("keydown", function (e) { if (e.key === "Enter") fn(); });
  }
  each.call(document.querySelectorAll("table.sort"), function (table) {
    var head = table.tHead && table.tHead.rows[0];
    if (!head) return;
    each.call(head.cells, function (th, i) {
      sortable(th, function () { sortBy(table, i, th); });
    });
  });

  var src = document.getElementById("vmi-data");
  var table = document.getElementById("vmi-list");
  if (!src || !table) return;
  var D = JSON.parse(src.textContent), R = D.rows, body = table.tBodies[0];
  var C = {}; D.cols.forEach(function (c, i) { C[c] = i; });
  var byId = {}; R.forEach(function (r, i) { byId[r[C.id]] = i; });
  var section = document.getElementById("vms");
  each.call(section.querySelectorAll(".noscript"), function (n) { n.hidden = true; });

  /* the view */
  var S = { verdict: "", ns: "", node: "", code: "", group: "", q: "",
            sort: "", dir: 1, page: 0 }, view = [], mark = -1;
  function label(r, col) {  /* the text a column sorts and searches by */
    var v = r[C[col]];
    switch (col) {
    case "ns": case "cpu": case "outcome": return D.strs[v];
    case "node": case "drainTarget": return v < 0 ? "" : D.nodes[v];
    case "verdict": return D.verdicts[v];
    case "drain": return D.drain[v][0];
    case "blockers": case "warnings":
      return v.map(function (c) { return D.codes[c]; }).join(" ");
    case "groups": return v.length ? D.groups[v[0]][0] : "";
    default: return v;
    }
  }
  var SORTS = ["name", "node", "verdict", "cpu", "blockers", "groups",
               "targets", "outcome", "drain", "drainTarget"];
  var NS = [], seenNs = {};  /* the namespaces of the rows */
  R.forEach(function (r) {
    if (!seenNs[r[C.ns]]) { seenNs[r[C.ns]] = 1; NS.push(D.strs[r[C.ns]]); }
  });
  /* the names a filter key may take */
  var NAMES = {
    verdict: function () { return D.verdicts; },
    ns: function () { return NS; },
    node: function () { return D.nodes; },
    code: function () { return D.codes; },
    group: function () { return D.groups.map(function (g) { return g[2]; }); }
  };
  var WORDS = { verdict: "verdict", ns: "namespace", node: "node",
                code: "code", group: "group" };
  function unknown() {  /* the first filter naming nothing: [key, name] */
    var ks = Object.keys(NAMES);
    for (var i = 0; i < ks.length; i++)
      if (S[ks[i]] !== "" && NAMES[ks[i]]().indexOf(S[ks[i]]) < 0)
        return [ks[i], S[ks[i]]];
    return null;
  }
  function compute() {
    var q = S.q.toLowerCase(), out = [];
    var code = S.code === "" ? -1 : D.codes.indexOf(S.code);
    var grp = -1;
    D.groups.forEach(function (g, i) { if (g[2] === S.group) grp = i; });
    for (var i = 0; i < R.length; i++) {
      var r = R[i];
      if (S.verdict !== "" && D.verdicts[r[C.verdict]] !== S.verdict) continue;
      if (S.ns !== "" && D.strs[r[C.ns]] !== S.ns) continue;
      if (S.node !== "" && (r[C.node] < 0 || D.nodes[r[C.node]] !== S.node))
        continue;
      if (code >= 0 && r[C.blockers].indexOf(code) < 0 &&
          r[C.warnings].indexOf(code) < 0) continue;
      if (S.code !== "" && code < 0) continue;
      if (S.group !== "" && r[C.groups].indexOf(grp) < 0) continue;
      if (q && r[C.name].toLowerCase().indexOf(q) < 0 &&
          (r[C.node] < 0 || D.nodes[r[C.node]].toLowerCase().indexOf(q) < 0))
        continue;
      out.push(i);
    }
    if (S.sort) {
      var col = S.sort, keys = {};
      out.forEach(function (i) {
        var k = label(R[i], col);
        keys[i] = typeof k === "number" ? k : String(k).toLowerCase();
      });
      out.sort(function (a, b) {
        var x = keys[a], y = keys[b];
        return (x < y ? -1 : x > y ? 1 : a - b) * (x === y ? 1 : S.dir);
      });
    }
    view = out;
  }

  /* controls */
  var box = el("div", "controls"), search = el("input");
  search.type = "search";
  search.placeholder = "Search by name or node\u2026";
  search.setAttribute("aria-label", "Search the list");
  box.appendChild(search);
  var selects = {};
  function select(name, title, options) {
    var s = el("select");
    s.setAttribute("aria-label", title);
    s.appendChild(el("option", null, title)).value = "";
    options.forEach(function (o) { s.appendChild(el("option", null, o[1])).value = o[0]; });
    s.addEventListener("change", function () { S[name] = s.value; S.page = 0; update(); });
    selects[name] = s;
    box.appendChild(s);
  }
  function used(col, n) {  /* the values of a column that occur */
    var seen = new Array(n);
    R.forEach(function (r) {
      var v = r[C[col]];
      if (Array.isArray(v)) v.forEach(function (x) { seen[x] = 1; });
      else if (v >= 0) seen[v] = 1;
    });
    return seen;
  }
  function opts(col, names, n) {
    var seen = used(col, n), out = [];
    for (var i = 0; i < n; i++) if (seen[i]) out.push([names(i), names(i)]);
    return out.sort(function (a, b) { return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0; });
  }
  select("verdict", "every verdict", opts("verdict", function (i) { return D.verdicts[i]; }, D.verdicts.length));
  select("ns", "every namespace", opts("ns", function (i) { return D.strs[i]; }, D.strs.length));
  select("node", "every node", opts("node", function (i) { return D.nodes[i]; }, D.nodes.length));
  var cs = used("blockers", D.codes.length), cw = used("warnings", D.codes.length);
  select("code", "every code", D.codes.filter(function (c, i) { return cs[i] || cw[i]; })
    .map(function (c) { return [c, c]; }));
  select("group", "every group", D.groups.map(function (g) {
    return [g[2], g[0] + " " + g[1]];
  }));
  var count = el("span", "count");
  box.appendChild(count);
  var pager = el("div", "pager"), prev = el("button", null, "\u2039 previous"),
      where = el("span"), next = el("button", null, "next \u203a");
  prev.type = next.type = "button";
  pager.appendChild(prev); pager.appendChild(where); pager.appendChild(next);
  prev.addEventListener("click", function () { S.page--; update(); });
  next.addEventListener("click", function () { S.page++; update(); });
  var wrap = table.parentNode;
  wrap.parentNode.insertBefore(box, wrap);
  wrap.parentNode.insertBefore(pager, wrap.nextSibling);
  var timer = 0;
  search.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { S.q = search.value.trim(); S.page = 0; update(); }, 200);
  });
  each.call(table.tHead.rows[0].cells, function (th, i) {
    sortable(th, function () {
      if (S.sort === SORTS[i]) S.dir = -S.dir; else { S.sort = SORTS[i]; S.dir = 1; }
      S.page = 0; update();
    });
  });

  /* rows */
  function link(parent, href, text, cls) {
    var a = el("a", cls, text);
    a.href = href;
    parent.appendChild(a);
    return a;
  }
  function nodeCell(tr, n) {
    var td = tr.insertCell();
    if (n >= 0)
      link(td, "#node-" + encodeURIComponent(D.nodes[n]), null, "name")
        .appendChild(el("bdi", null, D.nodes[n]));
    else td.textContent = "\u2014";
  }
  function row(i) {
    var r = R[i], tr = el("tr"), td;
    if (!r[C.attention]) tr.id = r[C.id];  /* else the static row has it */
    if (i === mark) tr.className = "hit";
    td = tr.insertCell(); td.className = "name";
    td.appendChild(el("bdi", null, r[C.name]));
    nodeCell(tr, r[C.node]);
    td = tr.insertCell();
    /* a drain that stops or waits on the VMI: never green */
    var tone = D.tones[r[C.verdict]], dt = D.drain[r[C.drain]][1];
    if (tone === "tone-ok" && (dt === "tone-warn" || dt === "tone-fail"))
      tone = dt;
    td.appendChild(el("span", "badge " + tone, D.verdicts[r[C.verdict]]));
    tr.insertCell().textContent = D.strs[r[C.cpu]];
    td = tr.insertCell();
    [["blockers", "tone-fail", "\u2717 "], ["warnings", "tone-warn", "\u26a0 "]].forEach(function (k) {
      r[C[k[0]]].forEach(function (c) {
        td.appendChild(el("span", k[1], k[2]));
        link(td, "#code-" + D.codes[c], D.codes[c], "mono");
        td.appendChild(document.createTextNode(" "));
      });
    });
    td = tr.insertCell();
    r[C.groups].forEach(function (g) {
      link(td, "#group-" + D.groups[g][0], D.groups[g][0]);
      td.appendChild(document.createTextNode(" "));
    });
    td = tr.insertCell(); td.className = "num";
    td.textContent = r[C.targets] < 0 ? "\u2014" : r[C.targets];
    tr.insertCell().textContent = D.strs[r[C.outcome]];
    td = tr.insertCell(); td.className = D.drain[r[C.drain]][1];
    td.textContent = D.drain[r[C.drain]][0];
    nodeCell(tr, r[C.drainTarget]);
    return tr;
  }
  function encode() {
    var p = [];
    ["verdict", "ns", "node", "code", "group", "q", "sort"].forEach(function (k) {
      if (S[k] !== "") p.push(k + "=" + encodeURIComponent(S[k]));
    });
    if (S.sort && S.dir < 0) p.push("dir=desc");
    if (S.page) p.push("page=" + (S.page + 1));
    return "#vms" + (p.length ? "?" + p.join("&") : "");
  }
  function decode(h) {
    S = { verdict: "", ns: "", node: "", code: "", group: "", q: "", sort: "", dir: 1, page: 0 };
    h.replace(/^#vms\??/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("="), k = kv.slice(0, i), v;
      if (i < 0) return;
      try { v = decodeURIComponent(kv.slice(i + 1)); } catch (e) { return; }
      if (k === "page") S.page = Math.max(0, (parseInt(v, 10) || 1) - 1);
      else if (k === "dir") S.dir = v === "desc" ? -1 : 1;
      else if (S.hasOwnProperty(k)) S[k] = v;
    });
    if (SORTS.indexOf(S.sort) < 0) S.sort = "";
    /* an old link's index (#vms?verdict=3): the name it stood for */
    [["verdict", D.verdicts], ["ns", D.strs], ["node", D.nodes]].forEach(function (k) {
      var v = S[k[0]];
      if (/^[0-9]+$/.test(v) && NAMES[k[0]]().indexOf(v) < 0 &&
          +v < k[1].length)
        S[k[0]] = k[1][+v];
    });
    /* a group by its id in this report (#vms?group=G4): its name */
    D.groups.forEach(function (g) { if (g[0] === S.group) S.group = g[2]; });
  }
  function draw() {
    var pages = Math.max(1, Math.ceil(view.length / PAGE));
    if (S.page >= pages) S.page = pages - 1;
    if (S.page < 0) S.page = 0;
    var from = S.page * PAGE, to = Math.min(view.length, from + PAGE);
    var frag = document.createDocumentFragment();
    for (var k = from; k < to; k++) frag.appendChild(row(view[k]));
    body.textContent = "";
    body.appendChild(frag);
    var u = unknown();
    count.textContent = u ? "no VMI with " + WORDS[u[0]] + " '" + u[1] +
      "' (of " + R.length + " VMIs)" :
      view.length === R.length ? R.length + " VMIs" :
      view.length + " of " + R.length + " VMIs";
    where.textContent = view.length ? (from + 1) + "\u2013" + to + ", page " +
      (S.page + 1) + " of " + pages : "none";
    prev.disabled = S.page === 0;
    next.disabled = S.page >= pages - 1;
    search.value = S.q;
    Object.keys(selects).forEach(function (k) { selects[k].value = S[k]; });
    each.call(table.tHead.rows[0].cells, function (th, i) {
      if (SORTS[i] === S.sort) th.setAttribute("aria-sort", S.dir > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    });
  }
  function update() {
    compute();
    draw();
    if (history.replaceState) history.replaceState(null, "", encode());
  }
  function follow() {
    var h = location.hash, id;
    if (h.indexOf("#vms?") === 0) {
      decode(h); compute(); draw();
      return;
    }
    try { id = decodeURIComponent(h.slice(1)); } catch (e) { return; }
    if (id.indexOf("vmi-") !== 0 || !(id in byId)) return;
    var old = document.querySelector("tr.hit");
    if (old) old.classList.remove("hit");
    mark = byId[id];
    if (R[mark][C.attention]) {  /* the static row of the problems */
      var st = document.getElementById(id);
      if (st) st.classList.add("hit");
      return;
    }
    decode("#vms"); compute();
    S.page = Math.floor(view.indexOf(mark) / PAGE);
    draw();
    var tr = document.getElementById(id);
    if (tr) tr.scrollIntoView({ block: "center" });
  }
  window.addEventListener("hashchange", follow);
  decode(""); compute(); draw();
  follow();
  if (location.hash.indexOf("#vms?") === 0) section.scrollIntoView();
  /* for tools/browser-check.sh: when the list was drawn, and the first
   * frame after it */
  var root = document.documentElement;
  root.setAttribute("data-ready", String(Math.round(performance.now())));
  requestAnimationFrame(function () {
    setTimeout(function () {
      root.setAttribute("data-painted", String(Math.round(performance.now())));
    }, 0);
  });
})();
