/**
 * The stylesheet of every HTML report, inlined (the page loads nothing).
 * Light and dark colours follow `prefers-color-scheme`; print drops the
 * controls and keeps colours where they carry meaning. No rule depends on
 * JavaScript except `.js` conveniences.
 */
export const STYLE =
  `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--accent:#0969da;
--ok:#1a7f37;--ok-bg:#dafbe1;--bad:#cf222e;--bad-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;--static:#818b98;` +
  `--static-bg:#eff2f5;
--vis:#0969da;--vis-bg:#ddf4ff;--def-bg:transparent;--bar-a:#0969da;--bar-b:#afb8c1;--hi:#fff8c5}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--soft:#151b23;` +
  `--accent:#4493f8;
--ok:#3fb950;--ok-bg:#12361f;--bad:#f85149;--bad-bg:#3c1618;--warn:#d29922;--warn-bg:#3a2a05;--static:#9198a1;` +
  `--static-bg:#212830;
--vis:#4493f8;--vis-bg:#0c2d55;--bar-a:#4493f8;--bar-b:#3d444d;--hi:#3a2a05}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1200px;margin:0 auto;padding:16px 20px 48px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;padding-bottom:4px;` +
  `border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:16px 0 6px}
a{color:var(--accent)}
code,.mono,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.name{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;background:var(--soft);border:1px solid var(--line);` +
  `border-radius:6px;padding:8px}
.muted{color:var(--muted)}.ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0 0}
.meta dt{color:var(--muted)}.meta dd{margin:0;overflow-wrap:anywhere}
.chips{display:flex;flex-wrap:wrap;gap:6px;margin:10px 0 0;padding:0;list-style:none}
.chip{border:1px solid var(--line);border-radius:999px;padding:1px 10px;background:var(--soft)}
.chip.bad{background:var(--bad-bg);border-color:var(--bad)}` +
  `.chip.warn{background:var(--warn-bg);border-color:var(--warn)}` +
  `.chip.ok{background:var(--ok-bg);border-color:var(--ok)}
table{border-collapse:collapse}
.grid{width:100%}.grid th,.grid td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;` +
  `vertical-align:top}
.grid th{font-weight:600;background:var(--soft)}.grid tbody th a,.grid tfoot th{white-space:nowrap}
.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto;max-width:100%}
.violations{margin:0;padding:0;list-style:none}
.violations li{border-left:4px solid var(--bad);background:var(--bad-bg);padding:6px 10px;margin:0 0 6px;` +
  `border-radius:0 6px 6px 0;overflow-wrap:anywhere}
.violations li.warning{border-color:var(--warn);background:var(--warn-bg)}
.tag{display:inline-block;font-size:11.5px;font-weight:600;border-radius:4px;padding:0 6px;` +
  `border:1px solid currentColor}
.tag.ok{color:var(--ok)}.tag.bad{color:var(--bad)}.tag.warn{color:var(--warn)}.tag.skip{color:var(--muted)}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:6px 0;padding:0;list-style:none;font-size:12.5px}
.legend .cell{display:inline-block;min-width:22px;text-align:center;border:1px solid var(--line);border-radius:3px;` +
  `margin-right:4px}
.tl-controls{margin:6px 0}
.tl-toggle{position:absolute;opacity:0;width:1px;height:1px;margin:0}
.tl-controls label{display:inline-block;font-size:12.5px;border:1px solid var(--line);background:var(--soft);` +
  `color:var(--accent);border-radius:6px;padding:1px 10px;cursor:pointer}
.tl-toggle:focus-visible~.tl-controls label{outline:2px solid var(--accent)}
.tl-toggle:not(:checked)~.tl-wrap tr.quiet{display:none}
.tl-toggle:not(:checked)~.tl-controls .when-all,.tl-toggle:checked~.tl-controls .when-few{display:none}
.timeline{font-size:12.5px}
.timeline th,.timeline td{border:1px solid var(--line);padding:1px 4px}
.timeline thead th{background:var(--soft);font-weight:600;white-space:nowrap;position:sticky;top:0}
.timeline tbody th{font-weight:400;text-align:left;position:sticky;left:0;background:var(--bg);max-width:320px;` +
  `overflow:hidden;text-overflow:ellipsis;white-space:nowrap;z-index:1}
.timeline td,.cell{text-align:center;min-width:34px;white-space:nowrap;` +
  `font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.timeline tr.group th{background:var(--soft);color:var(--muted);font-weight:600;font-size:11.5px;` +
  `text-transform:uppercase;letter-spacing:.04em}
.t-static{background:var(--static-bg);color:var(--static)}
.t-visible,.t-in-context{background:var(--vis-bg);color:var(--vis)}
.t-loaded{background:var(--ok-bg);color:var(--ok);font-weight:700}
.t-deferred{color:var(--muted)}
.t-hidden{color:var(--line)}
.c-ok{outline:2px solid var(--ok);outline-offset:-2px;font-weight:700}
.c-bad{background:var(--bad);color:#fff;font-weight:700}
.col-hi{box-shadow:inset 0 0 0 999px rgba(127,127,127,.14)}
.calls{display:grid;gap:12px}
.call{border:1px solid var(--line);border-radius:8px;padding:10px 14px;scroll-margin-top:8px}
.call:target,.case:target{outline:3px solid var(--accent);outline-offset:2px}
.call h3{margin:0 0 4px;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline}
.call.has-bad{border-color:var(--bad)}
.calllist{margin:6px 0;padding-left:20px}
.calllist li{margin:2px 0;overflow-wrap:anywhere}
.search{margin:6px 0 6px 4px;padding:6px 10px;border-left:3px solid var(--vis);background:var(--soft);` +
  `border-radius:0 6px 6px 0}
.search .q{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;overflow-wrap:anywhere}
details>summary{cursor:pointer;color:var(--accent)}
details[open]>summary{margin-bottom:4px}
.explain td,.explain th{font-size:12.5px}
.pts{font-weight:700;color:var(--ok)}.pts0{color:var(--muted)}
.side{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.side>div{min-width:0;border:1px solid var(--line);border-radius:6px;padding:6px 8px}
.side h4{margin:0 0 4px;font-size:12.5px;color:var(--muted);font-weight:600}
.side ol,.side ul{margin:0;padding-left:20px}
.gain{color:var(--ok);font-weight:600}.lose{color:var(--bad);text-decoration:line-through}
.bars{display:flex;align-items:center;gap:8px;min-width:160px}.bars svg{flex:1 1 auto;min-width:60px;height:10px}` +
  `.bars .num{flex:0 0 auto;min-width:5.5ch}
.tokens text{font-size:11px;fill:var(--fg);font-family:system-ui,sans-serif}
.tokens .a{fill:var(--bar-a)}.tokens .b{fill:var(--bar-b)}.tokens .brk{fill:var(--warn)}
.chart svg{display:block;width:100%;height:auto;max-width:900px}
.chart text{font-size:11px;fill:var(--fg);font-family:system-ui,sans-serif}
.chart .axis{stroke:var(--line)}.chart .gridline{stroke:var(--line);stroke-dasharray:2 3}
.s0{fill:#0969da}.s1{fill:#bf8700}.s2{fill:#8250df}.s3{fill:#1a7f37}.s4{fill:#cf222e}.s5{fill:#57606a}
.rel{font-weight:700;color:var(--ok)}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;background:currentColor}
span.s0{color:#0969da}span.s1{color:#bf8700}span.s2{color:#8250df}span.s3{color:#1a7f37}span.s4{color:#cf222e}` +
  `span.s5{color:#57606a}
.top{margin:2px 0 0;padding-left:20px}.misses td{min-width:200px}` +
  `.misses th[scope=row]{min-width:180px;max-width:280px;font-weight:400}
td.missed{background:var(--bad-bg)}
.plain{margin:0;padding:0;list-style:none}
.metrics th[scope=row]{white-space:nowrap}
.agg-tools{min-width:640px}.agg-tools th[scope=row]{min-width:220px}.counted td:last-child{min-width:200px}` +
  `.counted td:first-child{width:40%}
.grid .num{text-align:right}
.mf{position:absolute;opacity:0;width:1px;height:1px;margin:0}
.mf-labels label{display:inline-block;margin:2px 4px 2px 0;border:1px solid var(--line);border-radius:999px;` +
  `padding:1px 10px;cursor:pointer;background:var(--soft)}
.f-0:checked~.mf-labels label[for=f-0],.f-1:checked~.mf-labels label[for=f-1],.f-2:checked~.mf-labels label[for=f-2],` +
  `.f-3:checked~.mf-labels label[for=f-3],.f-4:checked~.mf-labels label[for=f-4],.f-5:checked~.mf-labels label[for=f-` +
  `5],.f-any:checked~.mf-labels label[for=f-any]{background:var(--accent);color:var(--bg);border-color:var(--accent)}
.mf:focus-visible~.mf-labels{outline:2px dotted var(--accent)}
.f-0:checked~.scroll tbody tr:not(.m0),.f-1:checked~.scroll tbody tr:not(.m1),.f-2:checked~.scroll tbody tr:not(.m2),` +
  `.f-3:checked~.scroll tbody tr:not(.m3),.f-4:checked~.scroll tbody tr:not(.m4),.f-5:checked~.scroll tbody tr:not(.m` +
  `5){display:none}
.diff{display:grid;grid-template-columns:1fr 1fr;gap:8px}
.diff>div{min-width:0}.diff h4{margin:0 0 2px;font-size:12.5px;color:var(--muted)}
.case{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:0 0 6px;scroll-margin-top:8px}
.case.failed{border-color:var(--bad)}
.case>summary{color:var(--fg)}
.case .loc{font-size:12px}
.failure{margin:8px 0;padding:6px 8px;border-left:3px solid var(--bad);background:var(--bad-bg);` +
  `border-radius:0 6px 6px 0}
.failure pre{background:var(--bg)}
.js-only{display:none}.js .js-only{display:inline-block}
button{font:inherit;font-size:12.5px;border:1px solid var(--line);background:var(--soft);color:var(--fg);` +
  `border-radius:6px;padding:2px 10px;cursor:pointer}
footer{margin-top:32px;color:var(--muted);font-size:12px}
@media (max-width:640px){main{padding:10px 10px 32px}.side,.diff{grid-template-columns:1fr}` +
  `.meta{grid-template-columns:1fr}.meta dt{margin-top:4px}
.timeline tbody th{max-width:150px}.chart text{font-size:19px}.bars{min-width:90px}.bars svg{min-width:30px}` +
  `.tokgrid th,.tokgrid td{padding:4px}.call{padding:8px 10px}h1{font-size:18px}}
@media print{:root{--bg:#fff;--fg:#000}body{font-size:11px}main{max-width:none;padding:0}
.tl-controls label,button,.js-only{display:none!important}.call,.case,.violations li{break-inside:avoid}
.timeline thead th,.timeline tbody th{position:static}.scroll{overflow:visible}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}a{color:inherit;text-decoration:none}}
`;
