package report

import (
	"bufio"
	"encoding/json"
	"fmt"
)

// The page's pictures can be searched, zoomed, panned and clicked: one
// inline script (pageScript) reads a JSON description of every drawn item
// (pageData) and answers, for the box a user clicks or the name they look
// for, why the node is or is not delegated. Without the script the page
// still reads: the toolbar stays hidden and the pictures scroll.

// pageData is what the script knows: per graph, every drawn item with its
// partition or its reason, and the box that shows it.
type pageData struct {
	Backend string `json:"backend"`
	// Ops and Reasons are tables the items index into.
	Ops     []string `json:"ops"`
	Reasons []string `json:"reasons"`
	// Why explains each reason in a sentence.
	Why        map[string]string `json:"why"`
	Graphs     []pageGraph       `json:"graphs"`
	Partitions []pagePartition   `json:"partitions"`
}

type pageGraph struct {
	Name      string `json:"name"`
	Collapsed bool   `json:"collapsed"`
	// Items are [name, kind, op, partition, reason, detail, box]: kind "i"
	// (input), "n" (node) or "o" (the output); op and reason index the
	// tables (-1 for none); partition is -1 outside any; box indexes the
	// picture's boxes in document order.
	Items [][]any `json:"items"`
}

type pagePartition struct {
	ID       int `json:"id"`
	Graph    int `json:"graph"`
	Nodes    int `json:"nodes"`
	Inputs   int `json:"inputs"`
	Symbolic int `json:"symbolic"`
	Outputs  int `json:"outputs"`
}

// reasonWhy says what each reason means for the node, in the words of the
// profile and the partitioner.
var reasonWhy = map[string]string{
	"op not included":      "No pattern of the profile's ops.include matches the op.",
	"op excluded":          "A pattern of the profile's ops.exclude matches the op.",
	"excluded by name":     "The profile's exclude_nodes names this node.",
	"dtype refused":        "A value the node reads or makes has a dtype the profile's dtypes do not list.",
	"dynamic size refused": "A value the node reads or makes has a symbolic size, and the profile sets dynamic_shapes to false.",
	"partition too small":  "The backend could run it, but its partition kept fewer than two compute nodes and the profile does not allow single-node partitions.",
	"group refused":        "It belongs to a --group that could not be kept whole in one valid partition.",
	"excluded by policy":   "Lowering excluded it, to keep a symbolic value out of a partition the backend cannot receive it in.",
}

func (r *Report) pageData(scenes []*scene) pageData {
	d := pageData{Backend: r.Backend, Ops: []string{}, Reasons: []string{}, Why: reasonWhy, Graphs: []pageGraph{}, Partitions: []pagePartition{}}
	opIdx, reasonIdx := map[string]int{}, map[string]int{}
	index := func(table *[]string, idx map[string]int, s string) int {
		if s == "" {
			return -1
		}
		i, ok := idx[s]
		if !ok {
			i = len(*table)
			idx[s] = i
			*table = append(*table, s)
		}
		return i
	}
	detail := map[[2]string]string{}
	for _, u := range r.Unsupported {
		detail[[2]string{u.Graph, u.Node}] = u.Detail
	}
	graphOf := map[int]int{}
	for gi, m := range r.models() {
		s := scenes[gi]
		pg := pageGraph{Name: graphName(m.path), Collapsed: s.collapsed, Items: [][]any{}}
		for i, it := range m.items {
			b := s.itemBox[i]
			if b < 0 {
				continue // weights are not drawn
			}
			kind, op, reason := "n", index(&d.Ops, opIdx, it.op), index(&d.Reasons, reasonIdx, it.reason)
			switch it.kind {
			case itemInput:
				kind = "i"
			case itemOutput:
				kind, op = "o", -1
			}
			pg.Items = append(pg.Items, []any{it.name, kind, op, it.part, reason, detail[[2]string{m.path, it.name}], b})
		}
		for _, id := range m.parts {
			graphOf[id] = gi
		}
		d.Graphs = append(d.Graphs, pg)
	}
	for _, p := range r.Partitions {
		pp := pagePartition{ID: p.ID, Graph: graphOf[p.ID], Nodes: len(p.Nodes), Inputs: len(p.Inputs), Outputs: len(p.Outputs)}
		for _, v := range p.Inputs {
			if v.Symbolic {
				pp.Symbolic++
			}
		}
		d.Partitions = append(d.Partitions, pp)
	}
	return d
}

// writePageData embeds the data as JSON. encoding/json escapes <, > and &,
// so the text cannot end the element or upset an XML reader.
func writePageData(w *bufio.Writer, d pageData) error {
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	w.WriteString(`<script type="application/json" id="seam-data">`)
	w.Write(b)
	w.WriteString("</script>\n")
	return nil
}

// writeTools is a picture's toolbar and the panel that explains a node.
// Both stay hidden until the script runs.
func writeTools(w *bufio.Writer, gi int) {
	fmt.Fprintf(w, `<div class="tools" hidden="hidden">`+
		`<input type="search" class="find" list="names-%d" placeholder="find a node by name" aria-label="find a node by name"/>`+
		`<datalist id="names-%d"></datalist>`+
		`<button type="button" data-zoom="in" title="zoom in (+)">+</button>`+
		`<button type="button" data-zoom="out" title="zoom out (-)">−</button>`+
		`<button type="button" data-zoom="fit" title="the whole graph (0)">fit</button>`+
		`<button type="button" data-zoom="one" title="actual size (1)">1:1</button>`+
		`<span class="hint">drag or wheel to pan · ctrl+wheel, +/− to zoom · click a box: why</span>`+
		"</div>\n", gi, gi)
}

func writePanel(w *bufio.Writer) {
	w.WriteString(`<aside class="why" hidden="hidden" aria-live="polite"></aside>` + "\n")
}

// interactCSS styles the toolbar, the zoomable viewport and the panel.
const interactCSS = `
.tools { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 0 0 6px; }
.tools[hidden] { display: none; }
.tools input.find { width: 320px; padding: 4px 8px; font: 13px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
.tools button { min-width: 34px; padding: 3px 8px; border: 1px solid #d4d4d8; border-radius: 6px; background: #fafafa; cursor: pointer; }
.tools .hint { color: var(--muted); font-size: 12px; }
.viewer { position: relative; }
.scroll.zoom { overflow: hidden; height: 78vh; cursor: grab; touch-action: none; }
.scroll.zoom.dragging { cursor: grabbing; }
.scroll.zoom svg.graph { width: 100%; height: 100%; }
svg.graph .box { cursor: pointer; }
svg.graph .box.hit rect { stroke: #f59e0b; stroke-width: 4; }
aside.why { position: absolute; top: 8px; right: 8px; width: 360px; max-height: calc(100% - 16px); overflow: auto;
  background: #fff; border: 1px solid #d4d4d8; border-radius: 8px; box-shadow: 0 4px 16px rgba(0,0,0,.12); padding: 10px 14px; font-size: 13px; }
aside.why[hidden] { display: none; }
aside.why h4 { margin: 0 0 4px; font: 700 14px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; word-break: break-all; }
aside.why .status { font-weight: 650; margin: 6px 0 2px; }
aside.why .status.ok { color: #15803d; }
aside.why .status.no { color: #b45309; }
aside.why .close { position: absolute; top: 6px; right: 8px; border: 0; background: none; font-size: 16px; cursor: pointer; }
aside.why ul { padding-left: 18px; margin: 4px 0; }
aside.why button.name { border: 0; background: none; padding: 0; color: var(--blue); cursor: pointer; font: 12px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
`

// pageScript makes the pictures searchable, zoomable and clickable. It
// keeps to the DOM (textContent, never markup built from names), so a
// model's names cannot inject anything. It is written inside a CDATA
// section behind a line comment, which HTML ignores and keeps the page
// well-formed XML.
const pageScript = `
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("seam-data").textContent);
  var views = [];
  document.querySelectorAll("figure.graph").forEach(function (fig, gi) {
    views.push(viewer(fig, data.graphs[gi]));
  });
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function viewer(fig, g) {
    var port = fig.querySelector(".scroll"), svg = port.querySelector("svg.graph");
    var tools = fig.querySelector(".tools"), input = tools.querySelector("input.find");
    var panel = fig.querySelector("aside.why");
    var boxes = svg.querySelectorAll("g.box");
    var W = +svg.getAttribute("width"), H = +svg.getAttribute("height");
    var items = g.items.map(function (t) {
      return {name: t[0], kind: t[1], op: t[2] >= 0 ? data.ops[t[2]] : "", part: t[3],
        reason: t[4] >= 0 ? data.reasons[t[4]] : "", detail: t[5], box: t[6]};
    });
    var byName = {}, byBox = {};
    items.forEach(function (it) {
      byName[it.name] = it;
      // In a collapsed picture a partition's nodes share its box.
      if (!(g.collapsed && it.part >= 0)) byBox[it.box] = it;
    });
    var list = tools.querySelector("datalist");
    items.forEach(function (it) { if (it.kind !== "o") list.appendChild(el("option")).value = it.name; });
    tools.hidden = false;
    port.classList.add("zoom");
    svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
    var v = {x: 0, y: 0, s: 1};
    function viewSize() { return {w: port.clientWidth || 800, h: port.clientHeight || 600}; }
    function apply() {
      var c = viewSize();
      svg.setAttribute("viewBox", [v.x, v.y, c.w / v.s, c.h / v.s].join(" "));
    }
    function clampScale(s) { var c = viewSize(); return Math.max(Math.min(c.w / W, c.h / H, 1) / 2, Math.min(s, 8)); }
    function zoomAt(f, mx, my) {
      var s = clampScale(v.s * f);
      v.x += mx / v.s - mx / s; v.y += my / v.s - my / s; v.s = s; apply();
    }
    function zoom(how) {
      var c = viewSize();
      if (how === "in") zoomAt(1.5, c.w / 2, c.h / 2);
      if (how === "out") zoomAt(1 / 1.5, c.w / 2, c.h / 2);
      if (how === "fit") { v.s = Math.min(c.w / W, c.h / H, 1); v.x = (W - c.w / v.s) / 2; v.y = (H - c.h / v.s) / 2; apply(); }
      if (how === "one") zoomAt(1 / v.s, c.w / 2, c.h / 2);
    }
    function center(b, s) {
      var c = viewSize(), t = b.transform.baseVal.consolidate().matrix, r = b.querySelector("rect");
      v.s = Math.max(v.s, s || 1);
      v.x = t.e + r.width.baseVal.value / 2 - c.w / (2 * v.s);
      v.y = t.f + r.height.baseVal.value / 2 - c.h / (2 * v.s);
      apply();
    }
    v.s = Math.min(viewSize().w / W, 1);
    // A small graph needs no more room than it takes.
    if (H * v.s + 2 < port.clientHeight) port.style.height = Math.ceil(H * v.s + 2) + "px";
    apply();
    tools.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-zoom]");
      if (b) zoom(b.getAttribute("data-zoom"));
    });
    port.addEventListener("keydown", function (e) {
      var k = {"+": "in", "=": "in", "-": "out", "0": "fit", "1": "one"}[e.key];
      if (k) { zoom(k); e.preventDefault(); }
    });
    port.tabIndex = 0;
    port.addEventListener("wheel", function (e) {
      e.preventDefault();
      var r = port.getBoundingClientRect();
      if (e.ctrlKey || e.metaKey) zoomAt(Math.exp(-e.deltaY * 0.002), e.clientX - r.left, e.clientY - r.top);
      else { v.x += e.deltaX / v.s; v.y += e.deltaY / v.s; apply(); }
    }, {passive: false});
    var drag = null;
    port.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) return;
      drag = {x: e.clientX, y: e.clientY, moved: false};
      port.setPointerCapture(e.pointerId);
    });
    port.addEventListener("pointermove", function (e) {
      if (!drag) return;
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved) {
        if (Math.abs(dx) + Math.abs(dy) > 4) { drag.moved = true; port.classList.add("dragging"); } else return;
      }
      v.x -= dx / v.s; v.y -= dy / v.s; drag.x = e.clientX; drag.y = e.clientY; apply();
    });
    port.addEventListener("pointerup", function (e) {
      var d = drag;
      drag = null;
      port.classList.remove("dragging");
      if (!d || d.moved) return;
      var hit = document.elementsFromPoint(e.clientX, e.clientY);
      for (var i = 0; i < hit.length; i++) {
        var b = hit[i].closest ? hit[i].closest("g.box") : null;
        if (b) { pick(Array.prototype.indexOf.call(boxes, b)); return; }
      }
    });
    function pick(bi) {
      var it = byBox[bi];
      if (it) { show(it, false); return; }
      for (var i = 0; i < items.length; i++) {
        if (items[i].box === bi && items[i].part >= 0) { showPartition(items[i].part, bi); return; }
      }
    }
    var hitBox = null;
    function mark(bi) {
      if (hitBox) hitBox.classList.remove("hit");
      hitBox = boxes[bi] || null;
      if (hitBox) hitBox.classList.add("hit");
    }
    function open(title) {
      panel.textContent = "";
      var x = panel.appendChild(el("button", "close", "×"));
      x.type = "button"; x.title = "close";
      x.addEventListener("click", function () { panel.hidden = true; mark(-1); });
      panel.appendChild(el("h4", "", title));
      panel.hidden = false;
      return panel;
    }
    function partLink(id) {
      var a = el("a", "", "partition " + id);
      a.href = "#p" + id;
      return a;
    }
    function show(it, move) {
      mark(it.box);
      if (move) center(boxes[it.box]);
      history.replaceState(null, "", "#node=" + encodeURIComponent(it.name));
      var p = open(it.name);
      if (it.kind === "i") { p.appendChild(el("p", "", "An input of the graph.")); return; }
      if (it.kind === "o") { p.appendChild(el("p", "", "The graph's outputs.")); return; }
      p.appendChild(el("div", "op", it.op));
      if (it.part >= 0) {
        var s = p.appendChild(el("p", "status ok", "Delegated to " + data.backend + ", in "));
        s.appendChild(partLink(it.part));
        p.appendChild(el("p", "", "The backend runs the op with these dtypes and sizes, and the partitioner placed the node in a partition." +
          (g.collapsed ? " The picture draws the partition as one box." : "")));
        return;
      }
      p.appendChild(el("p", "status no", "Left to the parent program: " + it.reason));
      if (it.detail && it.detail !== it.op) p.appendChild(el("p", "detail", it.detail));
      if (data.why[it.reason]) p.appendChild(el("p", "", data.why[it.reason]));
    }
    function showPartition(id, bi) {
      mark(bi);
      var info = data.partitions[id];
      var p = open("partition " + id);
      var s = p.appendChild(el("p", "status ok", info.nodes + " nodes delegated to " + data.backend + "; " +
        info.inputs + " inputs (" + info.symbolic + " symbolic), " + info.outputs + " outputs. "));
      s.appendChild(partLink(id)).textContent = "its boundary";
      var ul = p.appendChild(el("ul"));
      items.forEach(function (it) {
        if (it.part !== id) return;
        var b = ul.appendChild(el("li")).appendChild(el("button", "name", it.name));
        b.type = "button";
        b.addEventListener("click", function () { show(it, false); });
      });
    }
    function find(q, move) {
      q = q.trim();
      if (!q) return false;
      var it = byName[q];
      if (it) { show(it, move); return true; }
      var hits = items.filter(function (x) { return x.name.indexOf(q) >= 0; });
      if (hits.length === 1) { show(hits[0], move); return true; }
      var p = open(hits.length ? hits.length + " nodes match " + q : "no node matches " + q);
      var ul = p.appendChild(el("ul"));
      hits.slice(0, 50).forEach(function (x) {
        var b = ul.appendChild(el("li")).appendChild(el("button", "name", x.name));
        b.type = "button";
        b.addEventListener("click", function () { show(x, true); });
      });
      return hits.length > 0;
    }
    input.addEventListener("change", function () { find(input.value, true); });
    input.addEventListener("keydown", function (e) { if (e.key === "Enter") find(input.value, true); });
    return {find: function (q) { return byName[q] ? find(q, true) : false; }, fig: fig};
  }
  function fromHash() {
    var m = /^#node=(.+)$/.exec(location.hash);
    if (!m) return;
    var name;
    try { name = decodeURIComponent(m[1]); } catch (err) { return; }
    for (var i = 0; i < views.length; i++) {
      if (views[i].find(name)) { views[i].fig.scrollIntoView(); return; }
    }
  }
  fromHash();
  window.addEventListener("hashchange", fromHash);
})();
`

func writeScript(w *bufio.Writer) {
	w.WriteString("<script>//<![CDATA[" + pageScript + "//]]></script>\n")
}
