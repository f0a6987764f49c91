// Drives the HTML partition report of a large graph in headless Chromium,
// as a person would: search a node by name, click boxes, zoom and pan,
// follow a #node= link. Every step checks what the page shows and fails
// loudly; the last screenshot is the picture the docs show.
//
//   node check-report-browser.js REPORT.html SHOT.png PARENT_NODE DELEGATED_NODE
//
// PARENT_NODE is a node the report leaves to the parent, DELEGATED_NODE
// one it delegates; PARENT_NODE's name without its number must be part of
// several names (native_layer_norm_20: native_layer_norm_).
//
// Needs playwright-core (PLAYWRIGHT_CORE names its folder) and Chromium
// (CHROMIUM, default /usr/bin/chromium); scripts/check-report-browser.sh
// provides both.
"use strict";
const path = require("path");
const { chromium } = require(path.join(process.env.PLAYWRIGHT_CORE || "playwright-core"));

const [page, shot, parentNode, delegatedNode] = process.argv.slice(2);
if (!page || !shot || !parentNode || !delegatedNode) {
  console.error("usage: node check-report-browser.js REPORT.html SHOT.png PARENT_NODE DELEGATED_NODE");
  process.exit(2);
}
const url = "file://" + path.resolve(page);

function check(ok, what) {
  if (!ok) throw new Error("check failed: " + what);
  console.log("ok   " + what);
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const errors = [];
  try {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const p = await ctx.newPage();
    p.on("pageerror", (e) => errors.push(e.message));
    p.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });

    await p.goto(url, { waitUntil: "load" });
    const nav = await p.evaluate(() => performance.getEntriesByType("navigation")[0].toJSON());
    const loadMs = Math.round(nav.loadEventEnd - nav.startTime);
    const fig = p.locator("figure.graph").first();
    const boxes = await fig.locator("g.box").count();
    const nodes = Number((await fig.locator("figcaption").innerText()).match(/(\d+) nodes/)[1]);
    console.log(`${path.basename(page)}: ${nodes} nodes drawn in ${boxes} boxes, loaded in ${loadMs} ms`);
    check(nodes >= 1000, `the graph has ${nodes} nodes (1,000+)`);
    check(await fig.locator(".tools").isVisible(), "the script showed the toolbar");
    const viewBox = async () => (await fig.locator("svg.graph").getAttribute("viewBox")).split(" ").map(Number);
    // Clicking a toolbar button may scroll the page: bring the picture
    // back before pointing at it.
    const portBox = async () => {
      await fig.locator(".scroll").evaluate((e) => e.scrollIntoView());
      return fig.locator(".scroll").boundingBox();
    };
    // Wheel events reach the page after mouse.wheel returns: wait for the
    // view to move, for up to two seconds.
    const changed = async (before) => {
      for (let i = 0; i < 40; i++) {
        const now = await viewBox();
        if (now.join(" ") !== before.join(" ")) return now;
        await p.waitForTimeout(50);
      }
      return before;
    };

    // Search by name: the box is marked, centred, and the panel says why.
    await fig.locator("input.find").fill(parentNode);
    await fig.locator("input.find").press("Enter");
    const panel = fig.locator("aside.why");
    check(await panel.isVisible(), "searching opens the panel");
    let text = await panel.innerText();
    check((await panel.locator("h4").innerText()) === parentNode && /Left to the parent program: .+\n/.test(text) &&
      text.includes("profile"), `the panel says why ${parentNode} is not delegated`);
    const hit = fig.locator("g.box.hit");
    check(await hit.count() === 1, "one box is marked");
    let port = await fig.locator(".scroll").boundingBox();
    const hb = await hit.boundingBox();
    const cx = hb.x + hb.width / 2, cy = hb.y + hb.height / 2;
    check(Math.abs(cx - (port.x + port.width / 2)) < 40 && Math.abs(cy - (port.y + port.height / 2)) < 40,
      "the found box is centred in the view");

    // A name that is part of several: the panel lists the matches.
    const part = parentNode.replace(/\d+$/, "");
    await fig.locator("input.find").fill(part);
    await fig.locator("input.find").press("Enter");
    text = await panel.innerText();
    check(text.includes(" nodes match " + part), `a partial name (${part}) lists its matches`);
    const other = panel.locator("button.name").nth(1);
    const otherName = await other.innerText();
    await other.click();
    check((await panel.locator("h4").innerText()) === otherName, `choosing a match (${otherName}) shows that node`);

    // Click a partition box: the panel sums the partition up and lists its nodes.
    await fig.locator("input.find").fill(delegatedNode);
    await fig.locator("input.find").press("Enter");
    text = await panel.innerText();
    check(text.includes("Delegated to") && /partition \d+/.test(text), `${delegatedNode} says which partition it is in`);
    const marked = await fig.locator("g.box.hit").boundingBox();
    await panel.locator("button.close").click();
    check(!(await panel.isVisible()), "the panel closes");
    await p.mouse.click(marked.x + marked.width / 2, marked.y + marked.height / 2);
    text = await panel.innerText();
    check(/^partition \d+$/.test(await panel.locator("h4").innerText()) && text.includes("nodes delegated to") && text.includes(delegatedNode),
      "clicking a collapsed partition lists its nodes");

    // Click a node left to the parent, one in view and clear of the panel.
    const spot = await fig.evaluate((f) => {
      const port = f.querySelector(".scroll").getBoundingClientRect();
      const panel = f.querySelector("aside.why").getBoundingClientRect();
      for (const b of f.querySelectorAll("g.box.parent")) {
        const r = b.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
        const inPort = x > port.left + 5 && x < port.right - 5 && y > port.top + 5 && y < port.bottom - 5;
        const underPanel = x > panel.left && x < panel.right && y > panel.top && y < panel.bottom;
        if (inPort && !underPanel) return { x, y, name: b.querySelector("text.name").textContent };
      }
      return null;
    });
    check(spot !== null, "a node left to the parent is in view");
    await p.mouse.click(spot.x, spot.y);
    check((await panel.locator("h4").innerText()) === spot.name, `clicking ${spot.name} opens its panel`);
    text = await panel.innerText();
    check(text.includes("Left to the parent program:"), "clicking a parent node says why it is not delegated");

    // Zoom: the buttons and ctrl+wheel change the scale around the view.
    let vb = await viewBox();
    await fig.locator("button[data-zoom=in]").click();
    let vb2 = await viewBox();
    check(Math.abs(vb[2] / vb2[2] - 1.5) < 0.01, `+ zooms in 1.5x (view ${vb[2].toFixed(0)} -> ${vb2[2].toFixed(0)} wide)`);
    port = await portBox();
    await p.mouse.move(port.x + port.width / 2, port.y + port.height / 2);
    await p.keyboard.down("Control");
    await p.mouse.wheel(0, 300);
    await p.keyboard.up("Control");
    let vb3 = await changed(vb2);
    check(vb3[2] > vb2[2] * 1.2, `ctrl+wheel zooms out (view ${vb2[2].toFixed(0)} -> ${vb3[2].toFixed(0)} wide)`);
    await fig.locator("button[data-zoom=fit]").click();
    const full = await fig.locator("svg.graph").evaluate((s) => [+s.getAttribute("width"), +s.getAttribute("height")]);
    vb = await viewBox();
    check(vb[3] >= full[1] - 1, `fit shows the whole graph (${full[1]} px tall)`);

    // Pan: dragging moves the view by the distance dragged, at the scale.
    await fig.locator("button[data-zoom=one]").click();
    port = await portBox();
    vb = await viewBox();
    await p.mouse.move(port.x + 300, port.y + 600);
    await p.mouse.down();
    await p.mouse.move(port.x + 250, port.y + 300, { steps: 8 });
    await p.mouse.up();
    vb2 = await viewBox();
    check(Math.abs((vb2[1] - vb[1]) - 300) < 2 && Math.abs((vb2[0] - vb[0]) - 50) < 2,
      `dragging pans (moved ${(vb2[0] - vb[0]).toFixed(0)}, ${(vb2[1] - vb[1]).toFixed(0)})`);
    await p.mouse.wheel(0, 400);
    vb3 = await changed(vb2);
    check(Math.abs((vb3[1] - vb2[1]) - 400) < 2, "the wheel pans down");

    // A link to a node opens the page on it.
    const q = await ctx.newPage();
    q.on("pageerror", (e) => errors.push(e.message));
    await q.goto(url + "#node=" + encodeURIComponent(parentNode), { waitUntil: "load" });
    const qt = await q.locator("figure.graph aside.why").innerText();
    check(qt.includes(parentNode) && qt.includes("Left to the parent program"), "#node=NAME opens the page on that node");
    await q.waitForTimeout(200);
    await q.screenshot({ path: shot });
    console.log("wrote " + shot);
    check(errors.length === 0, "no script errors" + (errors.length ? ": " + errors.join("; ") : ""));
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
