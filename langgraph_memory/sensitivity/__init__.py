"""The sensitivity gate's detectors and policy: PII and secrets found in text and redacted,
refused or allowed (:mod:`.policy`, :mod:`.patterns`, the optional Presidio adapter in
:mod:`.presidio`).
"""
