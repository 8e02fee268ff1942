"""The report's header: what run this page describes, read from the results folder's spec.json,
env.json, summary.json and miro.json (docs/contracts.md), so a report opened months later still
says which spec, runtime, data, model, method, replay and SparCL settings, device, code revision
and energy source produced its numbers. Missing facts say "not recorded" rather than guess.
"""
from __future__ import annotations

from typing import Any

from android_harness.device.methods import REGISTRY
from pipeline.report.results import ResultsData

NOT_RECORDED = "not recorded"


def _g(d: dict[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def _data(spec: dict[str, Any]) -> str:
    d = spec.get("data") or {}
    if not d:
        return NOT_RECORDED
    kind = d.get("kind", "?")
    where = f" {d['path']}" if kind in ("arrays", "ts") and d.get("path") else (f" {d['root']}" if d.get("root") else "")
    parts = [f"{kind}{where}: {d.get('tasks')} tasks x {d.get('classes_per_task')} classes ({d.get('class_order')} order)"]
    caps = [f"{d[k]} {k.split('_')[1]}/class" for k in ("max_train_per_class", "max_test_per_class") if d.get(k)]
    if caps:
        parts.append("capped at " + ", ".join(caps))
    norm = "standardised per channel (training-set mean/std)" if d.get("normalize") else "not standardised"
    if d.get("scale", 1.0) != 1.0:
        norm = f"divided by {d['scale']:g}, " + norm
    parts.append(norm)
    if d.get("seq_len"):
        parts.append(f"{d['seq_len']} steps per sample")
    return "; ".join(parts)


def _model(spec: dict[str, Any], manifest: dict[str, Any]) -> str:
    m = spec.get("model") or {}
    if not m:
        return NOT_RECORDED
    kind = m.get("kind", "?")
    if m.get("args"):
        detail = "args " + ", ".join(f"{k}={v!r}" for k, v in m["args"].items())
    elif kind == "mlp":
        detail = f"hidden {m.get('hidden')}"
    else:
        detail = f"width {m.get('width') or 'default'}"
    out = f"{kind} ({detail}, norm {m.get('norm')})"
    if manifest.get("parameter_count"):
        out += f", {manifest['parameter_count']:,} parameters"
    if m.get("maskable"):
        out += f", masked layers {', '.join(m['maskable'])}"
    return out


def _method(spec: dict[str, Any]) -> str:
    t = spec.get("train") or {}
    if not t:
        return NOT_RECORDED
    replayed = t.get("buffer_batch_size")
    replayed = f" (+{replayed} replayed)" if replayed is not None else ""
    out = (f"{t.get('method')}: {t.get('epochs')} epochs/task, batch {t.get('batch_size')}{replayed}, "
           f"{t.get('optimizer')} lr {t.get('lr')}")
    if t.get("method") in REGISTRY and REGISTRY[t["method"]].stores_logits:     # alpha and beta weigh its loss
        out += f", alpha {t.get('alpha')} beta {t.get('beta')}"
    return out


def _replay(spec: dict[str, Any], miro: dict[str, Any] | None) -> str:
    r = spec.get("replay") or {}
    if not r:
        return NOT_RECORDED
    out = (f"EM {r.get('em_size')}, SB {r.get('sb_size')}, swap ratio {r.get('swap_ratio')} every "
           f"{r.get('swap_period')} iteration(s), flash budget {r.get('storage_budget_mb')} MB")
    m = spec.get("miro") or {}
    if m.get("enabled") or miro:
        out += (f"; chosen per task by Miro from task {m.get('start_task', '?')} on "
                f"({m.get('search', '?')} search, {m.get('scorer', '?')} scorer)")
    else:
        out += "; Miro off (the same sizes for every task)"
    return out


def _sparcl(spec: dict[str, Any]) -> str:
    s = spec.get("sparcl") or {}
    if not s:
        return NOT_RECORDED
    if not s.get("enabled"):
        return "off"
    parts = [f"sparsity {s.get('sparsity')} ({'structured' if s.get('structured') else 'unstructured'})"]
    parts.append(f"TDM {'on' if s.get('tdm') else 'off'}")
    parts.append(f"DDR {'on, ' + str(s.get('ddr_fraction')) + ' of each task' if s.get('ddr') else 'off'}")
    parts.append(f"DGM {'on, ratio ' + str(s.get('dgm_ratio')) if s.get('dgm') else 'off'}")
    return ", ".join(parts)


def _device(data: ResultsData) -> str:
    p = data.profile or {}
    if not p:
        return NOT_RECORDED + (" (simulated)" if data.simulated else "")
    kind = "SIMULATED virtual phone" if data.simulated else "real phone"
    return (f"{p.get('model') or 'unknown model'} ({kind}), build {p.get('fingerprint') or NOT_RECORDED}, "
            f"Android SDK {p.get('sdk', '?')}, {p.get('abi') or '?'}, serial {p.get('serial') or '?'}")


_COUNTERS = {   # EnergyRow.source (pipeline.energy.counters.SOURCES) -> the counter, as the header names it
    "odpm_rails": "on-device power monitor (ODPM) rails: the PowerStats HAL's energy accumulators summed over "
                  "the rails it monitors, not the whole battery (rails.txt, read on the phone)",
    "energy_counter": "battery energy counter, energy_now from {where}",
    "charge_counter": "battery coulomb counter, charge_counter x voltage_now from {where}",
    "current_gauge": "battery fuel gauge, current_now x voltage_now from {where} sampled on the phone{units}",
    "current_samples": "battery fuel gauge, current_now x voltage_now from {where} sampled on the phone and "
                       "integrated sample by sample{units}",
}


def _energy_source(data: ResultsData) -> str:
    """The counter(s) the session figures came from (each session's energy rows name theirs), so the
    header says what the tables say."""
    power = data.spec.get("power") or {}
    traced = [s for s in data.sessions if s.trace is not None]
    if power and not power.get("enabled", True):
        return "not measured (power.enabled = false)"
    if not traced:
        return "not measured: no session has a power.csv"
    p = data.profile or {}
    conv = traced[0].trace.convention
    where = p.get("power_supply_dir") or "the battery's power_supply folder"
    units = (f" (current in {conv.get('current_unit', p.get('current_unit', '?'))}, positive when "
             f"{conv.get('current_positive_when', p.get('current_positive_when', '?'))})")
    if power.get("rate_hz"):
        units += f" at {power['rate_hz']:g} Hz asked"
    sessions: dict[str, int] = {}
    for s in data.sessions:
        for src in {r.source for r in s.rows if r.kind == "session" and r.source}:
            sessions[src] = sessions.get(src, 0) + 1
    if not sessions:
        out = "not measured: no session has an energy figure (the problems list says why)"
    else:
        ordered = sorted(sessions, key=_rank)
        parts = [_COUNTERS.get(src, src).format(where=where, units=units) for src in ordered]
        if len(ordered) > 1:
            parts = [f"{part} ({sessions[src]} session{'s' if sessions[src] > 1 else ''})"
                     for part, src in zip(parts, ordered)]
        out = "; ".join(parts)
    if data.simulated:
        out += "; SIMULATED: the virtual phone's power model, not a measurement"
    return out


def _rank(source: str) -> int:
    order = list(_COUNTERS)
    return order.index(source) if source in order else len(order)


def run_header(data: ResultsData) -> list[tuple[str, str, str]]:
    """(field id, label, value) rows, in reading order."""
    spec, env, summary = data.spec, data.env, data.summary
    manifest = data.manifest
    runtime = env.get("runtime") or summary.get("runtime") or _g(spec, "export", "runtime") or NOT_RECORDED
    return [
        ("spec", "spec", str(spec.get("name") or summary.get("name") or data.folder.name)
         + (f" (seed {spec['seed']})" if "seed" in spec else "")),
        ("runtime", "runtime", str(runtime)),
        ("data", "data", _data(spec)),
        ("model", "model", _model(spec, manifest)),
        ("method", "method", _method(spec)),
        ("replay", "replay", _replay(spec, data.miro)),
        ("sparcl", "SparCL", _sparcl(spec)),
        ("device", "device", _device(data)),
        ("git", "git revision", str(env.get("git_revision") or env.get("git") or NOT_RECORDED)),
        ("energy", "energy source", _energy_source(data)),
    ]
