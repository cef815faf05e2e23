"""Optional Microsoft Presidio adapter for the sensitivity gate.

Presidio adds what rules cannot find (names, locations, ...) through spaCy NER.
It is optional: ``pip install presidio-analyzer`` plus a spaCy model
(``en_core_web_lg`` by default). Without them, building a
:class:`PresidioDetector` with no analyzer raises ``ImportError`` saying what to
install; the rest of the gate works unchanged.

Example:
    >>> class FakeResult:
    ...     entity_type, start, end, score = "PERSON", 0, 5, 0.9
    >>> class FakeAnalyzer:
    ...     def analyze(self, text, language, **kwargs):
    ...         return [FakeResult()]
    >>> list(PresidioDetector(analyzer=FakeAnalyzer())("Alice lives here"))
    [(0, 5, 'person', 'presidio')]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from langgraph_memory.sensitivity.patterns import Span

__all__ = ["PresidioDetector", "PRESIDIO_KINDS"]

#: Presidio entity types mapped onto our kinds (others become their lower-cased name).
PRESIDIO_KINDS: Mapping[str, str] = {
    "EMAIL_ADDRESS": "email",
    "PHONE_NUMBER": "phone",
    "CREDIT_CARD": "card",
    "IBAN_CODE": "iban",
    "CRYPTO": "secret",
    "US_SSN": "national_id",
    "UK_NHS": "national_id",
    "PERSON": "person",
    "LOCATION": "location",
    "IP_ADDRESS": "ip_address",
}


class PresidioDetector:
    """Runs a Presidio ``AnalyzerEngine`` and reports its findings as detector spans.

    Args:
        analyzer: An ``AnalyzerEngine`` (or anything with the same ``analyze``);
            default: ``AnalyzerEngine()``, which loads a spaCy model from disk.
        language: The language passed to ``analyze``.
        entities: Presidio entity types to ask for (default: all it knows).
        score_threshold: Findings scoring below this are ignored.
        kinds: Mapping of Presidio entity types to our kinds.

    Raises:
        ImportError: When no analyzer is given and Presidio or its model is missing.
    """

    def __init__(
        self,
        analyzer: Any = None,
        *,
        language: str = "en",
        entities: Sequence[str] | None = None,
        score_threshold: float = 0.5,
        kinds: Mapping[str, str] = PRESIDIO_KINDS,
    ) -> None:
        if analyzer is None:
            analyzer = _default_analyzer()
        self.analyzer = analyzer
        self.language = language
        self.entities = list(entities) if entities is not None else None
        self.score_threshold = score_threshold
        self.kinds = dict(kinds)

    def __call__(self, text: str) -> Iterator[Span]:
        results = self.analyzer.analyze(
            text=text,
            language=self.language,
            entities=self.entities,
            score_threshold=self.score_threshold,
        )
        for r in results:
            if r.score >= self.score_threshold and r.end > r.start:
                kind = self.kinds.get(r.entity_type, r.entity_type.lower())
                yield int(r.start), int(r.end), kind, "presidio"


def _default_analyzer() -> Any:
    try:
        from presidio_analyzer import AnalyzerEngine
    except ImportError as exc:
        raise ImportError(
            "SensitivityPolicy(presidio=True) needs presidio-analyzer: "
            "pip install presidio-analyzer && python -m spacy download en_core_web_lg"
        ) from exc
    try:
        return AnalyzerEngine()
    except (OSError, ValueError) as exc:  # spaCy raises OSError when the model is missing
        raise ImportError(
            f"presidio-analyzer is installed but its spaCy model could not be loaded ({exc}); "
            "install one (python -m spacy download en_core_web_lg) or pass analyzer=..."
        ) from exc
