package report

// pageCSS styles the HTML report. System fonts only: the page must render
// offline and identically without fetching anything. It contains neither
// "<" nor "&", so it is safe inside the page's XML-compatible markup.
const pageCSS = `
pre.intro{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f7f7f9;border:1px solid #e3e3e8;border-radius:6px;padding:12px 14px;overflow-x:auto;white-space:pre}
:root { --fg: #18181b; --muted: #71717a; --line: #e4e4e7; --red: #dc2626; --redbg: #fef2f2; --blue: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1400px; padding: 20px 28px 40px; color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
code, .nodes { font-family: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
h1 { font-size: 24px; margin: 0 0 14px; font-weight: 650; }
h1 .model { font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
h1 .arrow { color: var(--muted); }
h1 .backend { background: #eef2ff; color: #3730a3; padding: 1px 8px; border-radius: 6px; }
h2 { font-size: 18px; margin: 28px 0 10px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
h3 small, figcaption { color: var(--muted); font-weight: normal; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; }
.card { border: 1px solid var(--line); border-radius: 10px; padding: 8px 16px; min-width: 130px; background: #fafafa; }
.card b { display: block; font-size: 24px; line-height: 1.2; }
.card span { color: var(--muted); }
.card.ok b { color: #15803d; }
.card.muted b { color: #52525b; }
.card.alert { border-color: var(--red); background: var(--redbg); }
.card.alert b, .card.alert span { color: var(--red); }
.alert-box { border: 2px solid var(--red); background: var(--redbg); border-radius: 10px; padding: 4px 18px 14px; margin-top: 20px; }
.alert-box h2 { color: var(--red); margin-top: 12px; }
.calm { border: 1px solid #bbf7d0; background: #f0fdf4; border-radius: 10px; padding: 2px 18px; margin-top: 20px; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { text-align: left; padding: 4px 12px 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
tr.sym td { background: var(--redbg); }
tr.sym td:first-child { box-shadow: inset 4px 0 0 var(--red); }
.alert-box tr.sym td { background: #fff; }
.badge { background: var(--red); color: #fff; border-radius: 4px; padding: 0 6px; font-size: 11px; margin-left: 6px; }
code.ann { color: #1e3a8a; }
tr.sym code.ann { color: var(--red); font-weight: 600; }
a { color: var(--blue); }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center; margin: 4px 0 10px; color: #3f3f46; }
.legend .sw { display: inline-block; width: 14px; height: 14px; border: 1.5px solid; border-radius: 3px; margin-right: 6px; vertical-align: -2px; }
.legend .pill { border-radius: 7px; border-color: #71717a; background: #fff; }
.legend .ln { display: inline-block; width: 26px; border-top: 2px solid; margin-right: 6px; vertical-align: 4px; }
.legend .ln.thick { border-top-width: 3px; }
.legend .symtext { color: var(--red); font-weight: 600; }
.legend .note { color: var(--muted); }
figure { margin: 0 0 18px; }
figcaption { margin-bottom: 6px; }
.scroll { overflow: auto; max-height: 78vh; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
article.partition { border-left: 5px solid; padding: 2px 0 2px 14px; margin: 14px 0; }
details summary { cursor: pointer; color: var(--blue); }
p.nodes { max-width: 1100px; color: #3f3f46; }
p.none { color: var(--muted); }
footer { margin-top: 36px; color: var(--muted); font-size: 12px; }
`
