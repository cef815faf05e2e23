# ruff: noqa: E501
"""The rows the held-out detector sets 6 and 7 share (``make_sensitivity_heldout6.py`` and
``…7.py``): a template's slots filled (positives recorded with their offsets, look-alikes
checked innocent), the halves by SHA-256 parity, and the rules every row must keep."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from heldout_values import _ASCII, iban_ok, id_ok, luhn_ok

KIND = {
    "sec": "secret",
    "ak": "api_key",
    "tok": "token",
    "pk": "private_key",
    "em": "email",
    "ph": "phone",
    "id": "cn_id",
    "ssn": "ssn",
    "card": "card",
    "iban": "iban",
}

SLOT = re.compile(r"⟦([^⟦⟧]*)⟧")
BODY = re.compile(r"^(\w+)([=@])(.*)$", re.S)


def half_of(text: str) -> str:
    return "held" if int(hashlib.sha256(text.encode("utf-8")).hexdigest(), 16) % 2 else "tune"


def _innocent(value: str) -> bool:
    """A filler value that no check would take for a card, an ID or a mobile number."""
    asc = value.translate(_ASCII)
    runs = re.findall(r"\d+", asc) + [
        re.sub(r"[ -]", "", g) for g in re.findall(r"\d{4}(?:[ -]\d{4}){3}(?:[ -]\d{1,3})?", asc)
    ]
    if any(13 <= len(r) <= 19 and luhn_ok(r) for r in runs):
        return False
    if any(id_ok(m) for m in re.findall(r"\d{17}[\dX]", asc)):
        return False
    return not re.search(r"(?<!\d)1[3-9]\d{9}(?!\d)", asc)


def render(lang: str, template: str, gen: dict[str, Any]) -> dict[str, Any]:
    """One row: the template's slots filled, each positive recorded with its offset."""
    out: list[str] = []
    spans: list[dict[str, Any]] = []
    pos = length = 0
    for m in SLOT.finditer(template):
        piece = template[pos : m.start()]
        out.append(piece)
        length += len(piece)
        body = m.group(1)
        if body.startswith("~"):
            for _ in range(100):  # a look-alike must not pass the checks by chance
                value = gen[body[1:]]()
                if _innocent(value):
                    break
            else:
                raise AssertionError(template)
        else:
            b = BODY.match(body)
            assert b and b.group(1) in KIND, template
            value = b.group(3) if b.group(2) == "=" else gen[b.group(3)]()
            spans.append({"kind": KIND[b.group(1)], "value": value, "at": length})
        out.append(value)
        length += len(value)
        pos = m.end()
    out.append(template[pos:])
    text = "".join(out)
    for s in spans:  # every offset computed, then checked against the final text
        assert text[s["at"] : s["at"] + len(s["value"])] == s["value"], (template, s)
    return {"lang": lang, "text": text, "spans": spans, "note": "", "half": half_of(text)}


# -- rules ---------------------------------------------------------------------------------
_EDGE = set(" \t\n'\"`“”‘’「」『』,;，。；、：:()（）<>[]")
_PREFIXES = re.compile(
    r"(?<![\w-])(sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|AKIA[A-Z2-7]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{40,}|glpat-[\w-]{20}|xox[bpa]-[\w-]{20,}|sk_live_\w{20,}|AIza[\w-]{35}|SG\.[\w-]{22}\.|hf_[A-Za-z]{30,}|LTAI\w{12,}|AKID\w{30,}|eyJ[\w-]{10,}\.eyJ|-----BEGIN [A-Z ]*PRIVATE KEY)"
)


def _outside(text: str, spans: list[tuple[int, int]], m: re.Match) -> bool:
    return not any(a <= m.start() and m.end() <= b for a, b in spans)


def problems(rows: list[dict[str, Any]], other_sets: list[Path]) -> list[str]:
    """Every rule a row must keep (``other_sets``: the files no line may copy)."""
    errs: list[str] = []
    others: set[str] = set()
    for path in other_sets:  # exact-copy check only; the other sets' lines are not shown
        if path.exists():
            with path.open(encoding="utf-8") as f:
                others |= {json.loads(line).get("text", "") for line in f if line.strip()}
    seen: set[str] = set()
    for n, row in enumerate(rows, 1):
        text = row["text"]
        asc = text.translate(_ASCII)
        if text in others:
            errs.append(f"{n}: line copied from an earlier set")
        if text in seen:
            errs.append(f"{n}: duplicate line")
        seen.add(text)
        if row["half"] != half_of(text):
            errs.append(f"{n}: wrong half")
        if "⟦" in text or "⟧" in text:
            errs.append(f"{n}: unfilled slot")
        ends: list[tuple[int, int]] = []
        for s in row["spans"]:
            v, at, kind = s["value"], s["at"], s["kind"]
            a = v.translate(_ASCII)
            d = re.sub(r"[ -]", "", a)
            if not v or (v[0] in _EDGE and not (kind == "phone" and v[0] == "(")) or v[-1] in _EDGE:
                errs.append(f"{n}: value {v!r} is not minimal")
            if text[at : at + len(v)] != v:
                errs.append(f"{n}: {v!r} not at {at}")
            if kind == "card" and not (re.fullmatch(r"\d{13,19}", d) and luhn_ok(d)):
                errs.append(f"{n}: card {v!r} not Luhn-valid")
            if kind == "cn_id" and not id_ok(a.replace(" ", "").upper()):
                errs.append(f"{n}: cn_id {v!r} has a bad check character")
            if kind == "iban" and not iban_ok(a):
                errs.append(f"{n}: iban {v!r} has bad check digits")
            if kind == "ssn" and not re.fullmatch(
                r"(?!000|666|9)\d{3}[- ]?(?!00)\d{2}[- ]?(?!0000)\d{4}", a
            ):
                errs.append(f"{n}: ssn {v!r} malformed")
            if kind == "email" and not re.fullmatch(r"[\w.+-]+@[\w-]+(\.[\w-]+)+", v):
                errs.append(f"{n}: email {v!r} malformed")
            if kind == "phone" and not 7 <= len(re.sub(r"\D", "", a)) <= 15:
                errs.append(f"{n}: phone {v!r} malformed")
            if kind == "private_key" and not v.startswith("-----BEGIN "):
                errs.append(f"{n}: private key {v!r} does not start at BEGIN")
            ends.append((at, at + len(v)))
        ends.sort()
        if any(x[1] > y[0] for x, y in zip(ends, ends[1:], strict=False)):
            errs.append(f"{n}: overlapping spans")
        # no valid look-alike left outside the spans
        for m in re.finditer(r"(?<![\dA-Za-z])\d{13,19}(?![\dA-Za-z])", asc):
            if _outside(asc, ends, m) and luhn_ok(m.group()):
                errs.append(f"{n}: Luhn-valid {m.group()} outside a span")
        for m in re.finditer(r"(?<!\d)\d{4}(?:[ -]\d{4}){3}(?:[ -]\d{1,3})?(?!\d)", asc):
            if _outside(asc, ends, m) and luhn_ok(re.sub(r"\D", "", m.group())):
                errs.append(f"{n}: Luhn-valid {m.group()} outside a span")
        for m in re.finditer(r"(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])", asc):
            if _outside(asc, ends, m) and id_ok(m.group().upper()):
                errs.append(f"{n}: valid ID {m.group()} outside a span")
        for m in re.finditer(r"(?<![\dA-Za-z])1[3-9]\d{9}(?!\d)", asc):
            if _outside(asc, ends, m):
                errs.append(f"{n}: mobile-like {m.group()} outside a span")
        for m in re.finditer(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b", asc):
            if _outside(asc, ends, m) and iban_ok(m.group()):
                errs.append(f"{n}: valid IBAN {m.group()} outside a span")
        for m in re.finditer(r"[A-Za-z0-9_.+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}", asc):
            if not any(a < m.end() and m.start() < b for a, b in ends) and not re.search(
                r"\.(png|jpg|svg|webp)$", m.group()
            ):
                errs.append(f"{n}: e-mail {m.group()} outside a span")
        for m in _PREFIXES.finditer(asc):
            if _outside(asc, ends, m):
                errs.append(f"{n}: credential shape {m.group()[:20]!r} outside a span")
    en = sum(1 for r in rows if r["lang"] == "en")
    zh = len(rows) - en
    neg = sum(1 for r in rows if not r["spans"])
    if len(rows) < 600:
        errs.append(f"only {len(rows)} lines (< 600)")
    if abs(en - zh) > len(rows) * 0.02:
        errs.append(f"languages unbalanced: {en} en / {zh} zh")
    if not 0.40 <= neg / max(len(rows), 1) <= 0.50:
        errs.append(f"negatives {neg}/{len(rows)} not about 45 %")
    for lang in ("en", "zh"):
        lr = [r for r in rows if r["lang"] == lang]
        ln = sum(1 for r in lr if not r["spans"])
        if not 0.38 <= ln / max(len(lr), 1) <= 0.52:
            errs.append(f"{lang}: negatives {ln}/{len(lr)} not about 45 %")
    missing = set(KIND.values()) - {s["kind"] for r in rows for s in r["spans"]}
    if missing:
        errs.append(f"kinds without a positive: {sorted(missing)}")
    return errs
