"""The report page: one self-describing HTML file next to its PNG figures and CSV files.

A small script sets ``data-images-loaded`` on <body> once the page has loaded ("all:N" when every
image decoded, else "missing:<names>"), which is how the headless-browser test checks the figures;
the header rows carry ``data-field`` ids for the same reason. Tasks are numbered from 1 on the
page, as ``edgecl train-host`` prints them (files keep docs/contracts.md's 0-based index).
"""
from __future__ import annotations

import html
from typing import Any

from pipeline.energy import EnergyRow, phase_totals
from pipeline.miro.compare import roles
from pipeline.report.results import ResultsData

CSS = """
body{font-family:system-ui,sans-serif;margin:24px;max-width:1100px;color:#222}
.sim{background:#fde2e1;border:2px solid #c0392b;padding:10px 14px;font-weight:600;margin:12px 0}
.warn{background:#fff6d5;border:1px solid #e0b000;padding:8px 12px;margin:8px 0}
table{border-collapse:collapse;font-size:13px;margin:8px 0}
td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}
th{background:#f2f2f2} td.l,th.l{text-align:left}
figure{margin:16px 0} img{max-width:100%;border:1px solid #ddd}
.missing{color:#888;font-style:italic}
"""

SCRIPT = """
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var bad = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                .map(function (i) { return i.getAttribute('src'); });
  document.body.setAttribute('data-images-loaded', bad.length ? 'missing:' + bad.join(',') : 'all:' + imgs.length);
});
"""

FIGURES = (
    ("accuracy_matrix", "Accuracy matrix (class-IL): row = after training task i, column = task j"),
    ("accuracy_over_time", "Accuracy of each task over time (eval events)"),
    ("power_over_time", "Battery power over time with the phases shaded; red dots = charging samples"),
    ("energy_per_task", "Energy per task, stacked by phase"),
    ("accuracy_vs_energy", "Accuracy vs energy of every configuration run (Miro candidates and the full run)"),
)


def _task(task: int | None) -> str:
    return "" if task is None else str(task + 1)


def _e(x: Any) -> str:
    return html.escape(str(x))


def _num(v: float | None, fmt: str = "{:.3f}") -> str:
    return "–" if v is None else fmt.format(v)


def _energy_table(rows: list[EnergyRow], sim: str) -> str:
    head = ("<tr><th class=l>kind</th><th class=l>name</th><th>task</th><th>duration s</th>"
            f"<th>energy J{sim}</th><th>± J (95 %)</th><th class=l>source</th><th>precise</th><th>mean W</th>"
            "<th>above idle J</th><th>train samples</th><th>mJ / sample</th><th class=l>note</th></tr>")
    body = "".join(
        f"<tr><td class=l>{_e(r.kind)}</td><td class=l>{_e(r.name)}</td><td>{_task(r.task)}</td>"
        f"<td>{r.duration_s:.2f}</td><td>{_num(r.energy_j)}</td><td>{_num(r.error_j)}</td>"
        f"<td class=l>{_e(r.source)}{'' if r.resolution_s is None else f' ({r.resolution_s:.2g} s)'}</td>"
        f"<td>{'yes' if r.precise else 'no'}</td><td>{_num(r.mean_power_w)}</td>"
        f"<td>{_num(r.above_idle_j)}</td><td>{r.train_samples or ''}</td>"
        f"<td>{_num(None if r.j_per_sample is None else r.j_per_sample * 1000)}</td><td class=l>{_e(r.note)}</td></tr>"
        for r in rows)
    return f"<table>{head}{body}</table>"


def _quality_table(data: ResultsData) -> str:
    head = ("<tr><th class=l>session</th><th class=l>role</th><th>samples</th><th>rate Hz (asked)</th>"
            "<th>gauge refresh s</th><th>charging samples</th><th class=l>charge_counter cross-check</th>"
            "<th class=l>warnings</th></tr>")
    body = []
    for s in data.sessions:
        tr = s.trace
        if tr is None:
            body.append(f"<tr><td class=l>{_e(s.session_id)}</td><td class=l>{s.role}</td>"
                        f"<td colspan=6 class=l>{_e(s.trace_error)}</td></tr>")
            continue
        cc = tr.cross_check()
        cc_text = cc.verdict + (f" ({cc.rel_diff:+.1%})" if cc.rel_diff is not None else "") + (f": {cc.note}" if cc.note else "")
        body.append(
            f"<tr><td class=l>{_e(s.session_id)}</td><td class=l>{s.role}</td><td>{len(tr)}</td>"
            f"<td>{tr.achieved_rate_hz:.2f} ({_num(tr.requested_rate_hz, '{:g}')})</td>"
            f"<td>{_num(tr.gauge.update_s if tr.gauge else None, '{:.2f}')}</td><td>{tr.charging_samples}</td>"
            f"<td class=l>{_e(cc_text)}</td><td class=l>{_e(' | '.join(tr.warnings))}</td></tr>")
    return f"<table>{head}{''.join(body)}</table>"


def _header_table(header: list[tuple[str, str, str]]) -> str:
    rows = "".join(f"<tr data-field='{_e(fid)}'><th class=l>{_e(label)}</th><td class=l>{_e(value)}</td></tr>"
                   for fid, label, value in header)
    return f"<h2>Run</h2><table class=header>{rows}</table>"


def _compare_table(compare: dict[str, Any]) -> str:
    """compare.json (``edgecl tune --compare``): each static run, Miro's, and the ratios."""
    c = compare["comparison"]
    marks = roles(c)
    def row(label: str, r: dict[str, Any], note: str) -> str:
        return (f"<tr><th class=l>{_e(label)}</th><td>{r['class_il']:.2f} %</td><td>{r['energy_j']:.3f} J</td>"
                f"<td>{r['ce']:.3f}</td><td class=l>{_e(note)}</td></tr>")
    rows = [row(f"static {k}", r, ", ".join(marks.get(k, []))) for k, r in compare["statics"].items()]
    m = compare["miro"]
    rows.append(row("Miro", m, f"profiling {m['profiling_energy_j']:.3f} J; choices {' '.join(m['choices'])}"))
    return ("<table><tr><th class=l>run</th><th>final class-IL</th><th>energy</th><th>CE (%/J)</th><th class=l></th></tr>"
            + "".join(rows) + "</table>"
            + f"<p>Miro's CE is {c['vs_oracle']:.3f}x the oracle's ({c['acc_vs_oracle']:+.2f} points of class-IL; the "
              f"oracle is Miro's rule applied in hindsight to the static runs), "
              f"{c['vs_default']:.3f}x the static default's and {c['vs_best_ce']:.3f}x the best CE in hindsight; "
              f"profiling was {c['share']:.1%} of its energy.</p>")


def render_html(data: ResultsData, figures: dict[str, str | None], csv_files: list[str], headline: dict[str, Any],
                trace_json: str | None, header: list[tuple[str, str, str]] | None = None,
                not_drawn: dict[str, str] | None = None) -> str:
    """The page; ``not_drawn``: figure key -> why it was not drawn (what did not run), said once."""
    not_drawn = not_drawn or {}
    sim = " (simulated)" if data.simulated else ""
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>edgecl report — {_e(data.folder.name)}</title>"
             f"<style>{CSS}</style></head><body data-simulated='{str(data.simulated).lower()}'>",
             f"<h1>edgecl report — {_e(data.folder.name)}</h1>"]
    if data.simulated:
        parts.append("<div class=sim>SIMULATED: every figure on this page was measured on an edgecl virtual phone "
                     "(a power model driven by real CPU time), not on a real device. Do not cite these numbers as "
                     "phone measurements.</div>")
    if header:
        parts.append(_header_table(header))
    parts.append("<h2>Summary</h2><table>")
    for k, v in headline.items():
        parts.append(f"<tr><th class=l>{_e(k)}</th><td class=l>{_e(v)}</td></tr>")
    parts.append("</table>")
    for p in data.problems:
        parts.append(f"<div class=warn>{_e(p)}</div>")
    parts.append("<h2>Figures</h2>")
    for key, caption in FIGURES:
        name = figures.get(key)
        if name:
            parts.append(f"<figure><img src='{_e(name)}' alt='{_e(caption)}'><figcaption>{_e(caption)}{sim}</figcaption></figure>")
        elif key not in not_drawn:
            parts.append(f"<p class=missing>{_e(caption)}: no data for this figure in this results folder.</p>")
    if not_drawn:
        parts.append("<p class=missing id=not-drawn>Not drawn, because that part did not run: "
                     + "; ".join(f"{_e(dict(FIGURES)[k].split(' (')[0].lower())} ({_e(why)})" for k, why in not_drawn.items())
                     + ".</p>")
    if data.compare:
        parts.append(f"<h2>Miro against the static configurations{sim}</h2>" + _compare_table(data.compare))
    totals = phase_totals(data.energy_rows)
    if totals:
        parts.append(f"<h2>Energy per phase{sim}</h2><table>" + "".join(
            f"<tr><th class=l>{_e(k)}</th><td>{v:.3f} J</td></tr>" for k, v in sorted(totals.items())) + "</table>")
    parts.append(f"<h2>Energy per session, task and phase{sim}</h2>")
    parts.append(f"<p>Idle baseline: {_num(data.idle_w, '{:.3f} W')} ({_e(data.idle_note)}); reported beside each "
                 "figure as <i>above idle</i>, never subtracted from it. Each figure names its counter (ODPM rails, "
                 "energy or charge counter, or the fuel gauge with its lag corrected) and the counter's period; "
                 "<i>± J</i> is a 95 % bound; rows shorter than 3 counter periods or less exact than 10 % are not "
                 "<i>precise</i> and Miro does not tune on them.</p>")
    parts.append(_energy_table(data.energy_rows, sim))
    parts.append("<h2>Power measurement quality</h2>" + _quality_table(data))
    parts.append("<h2>Data</h2><ul>" + "".join(f"<li><a href='{_e(f)}'>{_e(f)}</a></li>" for f in csv_files))
    if trace_json:
        parts.append(f"<li><a href='{_e(trace_json)}'>{_e(trace_json.rsplit('/', 1)[-1])}</a> — trace-event JSON: "
                     "open it in <a href='https://ui.perfetto.dev'>ui.perfetto.dev</a> (power counter track, "
                     "sessions/tasks/phases as slices)</li>")
    parts.append("</ul>")
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)
