// fragments.js REPORT.HTML FRAGMENT... - runs the report's own script
// (its inline <script> and #vmi-data) under Node on a small stand-in for
// the DOM, once per fragment, and prints one line per fragment:
//   FRAGMENT <TAB> the list's count line <TAB> rows shown <TAB> first
//   row's node link (or -) <TAB> its verdict badge's class (or -)
// Used by fragments.sh; needs no browser.
"use strict";
const fs = require("fs");
const vm = require("vm");

const html = fs.readFileSync(process.argv[2], "utf8");
const data = /<script type="application\/json" id="vmi-data">([^]*?)<\/script>/
  .exec(html);
const code = /<script>([^]*?)<\/script>/.exec(html);
if (!data || !code) {
  console.error(process.argv[2] + ": no #vmi-data or no script");
  process.exit(2);
}

class El {
  constructor(tag) {
    this.tagName = tag; this.children = []; this.attrs = {};
    this.parentNode = null; this.text = ""; this.className = "";
    const self = this;
    this.classList = {
      add(c) { if (!self.classList.contains(c)) self.className += " " + c; },
      remove(c) {
        self.className = self.className.split(" ")
          .filter((x) => x !== c).join(" ");
      },
      contains(c) { return self.className.split(" ").indexOf(c) >= 0; }
    };
  }
  get textContent() {
    return this.text + this.children.map((c) => c.textContent).join("");
  }
  set textContent(t) { this.children = []; this.text = String(t); }
  appendChild(c) {
    if (c.tagName === "#fragment") {
      c.children.forEach((k) => this.appendChild(k));
      c.children = [];
      return c;
    }
    c.parentNode = this; this.children.push(c);
    return c;
  }
  insertBefore(c, ref) {
    c.parentNode = this;
    const i = ref ? this.children.indexOf(ref) : -1;
    if (i < 0) this.children.push(c); else this.children.splice(i, 0, c);
    return c;
  }
  get nextSibling() {
    const p = this.parentNode, i = p ? p.children.indexOf(this) : -1;
    return i >= 0 && i + 1 < p.children.length ? p.children[i + 1] : null;
  }
  get cells() { return this.children; }
  insertCell() { return this.appendChild(new El("td")); }
  setAttribute(k, v) { this.attrs[k] = String(v); }
  getAttribute(k) { return k in this.attrs ? this.attrs[k] : null; }
  removeAttribute(k) { delete this.attrs[k]; }
  addEventListener() {}
  querySelectorAll() { return []; }
  scrollIntoView() {}
  find(cls) {	// the first descendant of that class
    for (const c of this.children) {
      if (c.classList.contains(cls)) return c;
      const f = c.find(cls);
      if (f) return f;
    }
    return null;
  }
}

function run(frag) {
  const section = new El("section"), wrap = new El("div");
  const table = new El("table"), head = new El("tr"), body = new El("tbody");
  section.appendChild(wrap);
  wrap.appendChild(table);
  for (let i = 0; i < 10; i++) head.appendChild(new El("th"));
  table.tBodies = [body];
  table.tHead = { rows: [head] };
  const root = new El("html");
  const ids = { "vmi-data": { textContent: data[1] }, "vmi-list": table,
                vms: section };
  const document = {
    documentElement: root,
    createElement: (t) => new El(t),
    createTextNode: (t) => { const e = new El("#text"); e.text = t; return e; },
    createDocumentFragment: () => new El("#fragment"),
    getElementById: (id) => ids[id] || null,
    querySelector: () => null,
    querySelectorAll: () => []
  };
  const box = {
    document, location: { hash: frag }, history: { replaceState() {} },
    window: { addEventListener() {} }, performance: { now: () => 0 },
    requestAnimationFrame() {}, setTimeout() {}, clearTimeout() {}
  };
  vm.runInNewContext(code[1], box);
  const count = section.find("count");
  const first = body.children[0];
  let nodeHref = "-";
  if (first && first.children[1].children[0])
    nodeHref = first.children[1].children[0].href;
  const badge = first ? first.children[2].children[0].className : "-";
  return [frag, count ? count.textContent : "no count",
          body.children.length, nodeHref, badge].join("\t");
}

process.argv.slice(3).forEach((f) => console.log(run(f)));
