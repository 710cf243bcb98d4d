/* kvscope report: optional table sorting and VMI filtering.  The report
 * reads the same without it.  Compiled into the binary, allowed by a hash
 * in the Content-Security-Policy; it reads only the page itself and
 * writes no markup (textContent only). */
(function () {
  "use strict";
  function key(cell) {
    var s = cell.getAttribute("data-sort");
    if (s === null) s = cell.textContent.trim();
    var n = Number(s);
    return s !== "" && !isNaN(n) ? n : s.toLowerCase();
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    Array.prototype.forEach.call(th.parentNode.cells, function (c) {
      c.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    rows.sort(function (a, b) {
      var x = key(a.cells[col]), y = key(b.cells[col]);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sort"),
    function (table) {
      var head = table.tHead && table.tHead.rows[0];
      if (!head) return;
      Array.prototype.forEach.call(head.cells, function (th, i) {
        th.classList.add("sortable");
        th.tabIndex = 0;
        th.addEventListener("click", function () { sortBy(table, i, th); });
        th.addEventListener("keydown", function (e) {
          if (e.key === "Enter") sortBy(table, i, th);
        });
      });
    });
  var vm = document.getElementById("vmi-table");
  if (!vm) return;
  var box = document.createElement("div"), text = document.createElement("input");
  var sel = document.createElement("select"), count = document.createElement("span");
  box.className = "controls";
  text.type = "search";
  text.placeholder = "Filter by name, node or code\u2026";
  text.setAttribute("aria-label", "Filter the table");
  [["", "every verdict"], ["fail", "would not migrate"], ["ok", "ok"],
   ["none", "not running"]].forEach(function (o) {
    var opt = document.createElement("option");
    opt.value = o[0]; opt.textContent = o[1]; sel.appendChild(opt);
  });
  sel.setAttribute("aria-label", "Verdict");
  box.appendChild(text); box.appendChild(sel); box.appendChild(count);
  vm.parentNode.insertBefore(box, vm);
  function apply() {
    var q = text.value.trim().toLowerCase(), want = sel.value, shown = 0;
    Array.prototype.forEach.call(vm.tBodies, function (body) {
      var any = false;
      Array.prototype.forEach.call(body.rows, function (r) {
        if (r.className === "group") return;
        var ok = (!want || r.getAttribute("data-tone") === want) &&
          (!q || r.textContent.toLowerCase().indexOf(q) >= 0 ||
           body.rows[0].textContent.toLowerCase().indexOf(q) >= 0);
        r.hidden = !ok;
        if (ok) { any = true; shown++; }
      });
      body.hidden = !any;
    });
    count.textContent = shown + " shown";
  }
  text.addEventListener("input", apply);
  sel.addEventListener("change", apply);
  apply();
})();
