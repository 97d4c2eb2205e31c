"""What every game's HTML report shares: the styles, the page around a section, and the figures'
loaded marker that the rendering tests wait for."""

from __future__ import annotations

import datetime as dt
import html
from dataclasses import dataclass

CSS = """
:root { --ink:#1f2430; --muted:#6b7280; --line:#e5e7eb; --bg:#f6f7f9; --accent:#2563eb; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
       font:14px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { background:#111827; color:#f9fafb; padding:28px 40px 24px; }
header h1 { margin:0 0 4px; font-size:24px; letter-spacing:-0.01em; }
header p { margin:0; color:#cbd5e1; }
.stats { display:flex; gap:12px; flex-wrap:wrap; margin-top:16px; }
.stat { background:#1f2937; border-radius:8px; padding:8px 14px; min-width:120px; }
.stat b { display:block; font-size:18px; color:#fff; }
.stat span { font-size:12px; color:#9ca3af; }
main { max-width:1280px; margin:0 auto; padding:24px 40px 60px; }
section { background:#fff; border:1px solid var(--line); border-radius:10px;
          padding:20px 24px; margin:0 0 22px; }
section h2 { margin:0 0 4px; font-size:18px; }
section > p.lead { margin:0 0 14px; color:var(--muted); }
.grid { display:grid; grid-template-columns:repeat(auto-fit, minmax(520px, 1fr)); gap:18px; }
figure { margin:0; border:1px solid var(--line); border-radius:8px; padding:10px; background:#fff; }
figure img { width:100%; height:auto; display:block; }
figcaption { color:var(--muted); font-size:12px; margin-top:6px; }
table { border-collapse:collapse; width:100%; font-variant-numeric:tabular-nums; font-size:12.5px; }
th, td { padding:6px 8px; border-bottom:1px solid var(--line); text-align:right; white-space:nowrap; }
th { background:#f9fafb; font-weight:600; color:#374151; position:sticky; top:0; }
th:first-child, td:first-child, th.name, td.name { text-align:left; }
.stack { display:grid; gap:18px; }
.stack figure img { max-width:1100px; margin:0 auto; }
tbody tr:nth-child(even) { background:#fcfcfd; }
td .ci { display:block; color:var(--muted); font-size:11px; }
.swatch { display:inline-block; width:10px; height:10px; border-radius:2px; margin-right:7px; }
.scroll { overflow-x:auto; }
.empty { color:var(--muted); font-style:italic; padding:10px 0; }
dl.defs { display:grid; grid-template-columns:220px 1fr; gap:6px 18px; margin:0; }
dl.defs dt { font-weight:600; }
dl.defs dt small { color:var(--muted); font-weight:400; }
dl.defs dd { margin:0; color:#374151; }
figcaption .paper { color:#9ca3af; }
.tag { display:inline-block; font-size:10px; color:var(--muted); border:1px dashed #9ca3af;
       border-radius:3px; padding:0 4px; margin-left:6px; }
footer { color:var(--muted); font-size:12px; text-align:center; padding:0 0 30px; }
"""


FIGURES_LOADED = """<script>
// Marks the page once every embedded figure has decoded (checked by the rendering test).
window.addEventListener("load", function () {
  var ok = Array.prototype.filter.call(document.images, function (i) {
    return i.complete && i.naturalWidth > 0;
  });
  document.body.setAttribute("data-figures-loaded", String(ok.length));
});
</script>"""
"""Marks the page once every embedded figure has decoded (checked by the rendering tests)."""


def section_page(title: str, body: str) -> str:
    """A page of its own around one report section: the report's styles, nothing fetched."""
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title><style>{CSS}</style></head>
<body><header><h1>{html.escape(title)}</h1><p>Recomputed from the stored games. Generated {now}.</p>
</header><main>{body}</main>
{FIGURES_LOADED}</body></html>
"""


@dataclass(frozen=True)
class ReportStats:
    """What a report covered and how long it took to build."""

    games: int
    agents: int
    seconds: float
    bytes: int
