"""Sensitivity gate: find PII and secrets, then redact, refuse or allow them per policy.

Runs on the write path before anything is stored or embedded, so a redacted
secret never reaches the database, its WAL, the lexical index or a vector.

Kinds found by the built-in detectors (placeholder in brackets):

=============== ================================================================ ==============
kind            what                                                             placeholder
=============== ================================================================ ==============
``email``       e-mail addresses (also with letters beyond ASCII, an apostrophe, ``[EMAIL]``
                and written against scrapers: ``li(at)example.com``,
                ``john dot smith at gmail dot com``)
``phone``       Chinese mobile (1[3-9]x, ±86) and landline with area code,       ``[PHONE]``
                national numbers with a trunk 0 in groups (``0755-8888 6666``,
                ``020 7946 0958``), North American with separators,
                international ``+CC ...``/``00CC ...``, and ``555-0123``
                after a word saying it is a number (``call``, ``电话``); not
                hotlines (``400-976-3666``, ``1-800-275-2273``) nor a number
                after an account's name (``宽带账号 028-87654321``)
``cn_id``       18-digit Chinese resident ID, date and GB 11643 check character  ``[CN_ID]``
``ssn``         US Social Security numbers in the 3-2-4 form (valid area/group)  ``[SSN]``
``card``        payment cards: 13-16 or 19 digits, IIN 2-6, Luhn, spaces,        ``[CARD]``
                dashes or dots
``iban``        IBAN of a known country: length and mod-97 check                 ``[IBAN]``
``api_key``     prefixed keys: ``sk-`` (12 characters or more, with a digit and  ``[API_KEY]``
                a letter), ``sk-proj-``, ``sk-ant-``, ``sk_live_``/``sk_test_``,
                ``ghp_``/``gho_``/``github_pat_``, ``glpat-``, ``xox?-``,
                ``AKIA``/``ASIA``, ``LTAI`` (Aliyun), ``AKID`` (Tencent),
                ``AIza``, ``GOCSPX-``, ``ya29.``, ``hf_``, ``npm_``,
                ``pypi-``, ``SG.``, ``SK`` (Twilio), ``key-`` (Mailgun),
                ``whsec_``, ``xapp-``, ``gsk_``, ``shpat_``, ``dop_v1_``...,
                Telegram bot tokens; Slack and Discord webhook URLs (a key
                written in its shape but as a placeholder, ``glpat-xxxx...``,
                is not one)
``token``       JWTs; HTTP credentials: after ``Authorization:`` (or             ``[TOKEN]``
                ``Proxy-Authorization``, or a key of that name) with a scheme
                (``Basic``, ``Bearer``, ``Digest``, ``token``...) at any length,
                a Digest/OAuth/SigV4 parameter list whole; ``Basic`` and base64
                of ``user:password`` anywhere; 16 characters or more after
                ``Bearer``/``token``; the pairs of a ``Cookie:`` header
``private_key`` PEM private key blocks (to the END line, or the end of the text) ``[PRIVATE_KEY]``
``secret``      the value after a label naming a password, a key or a token,     ``[SECRET]``
                however short or plain (``password: abc``, ``my password is
                sunshine``, ``密码：abc``, ``口令是 tiger``, ``令牌：x``: see
                :mod:`~langgraph_memory.sensitivity.labels`, which also says
                what is not one: placeholders, code, rules, prose), the
                password of URL credentials (``postgres://user:PASSWORD@host``),
                one-time codes after their name (``验证码：482913``,
                ``verification code is 482913``), values in markup
                (``<password>x</password>``, ``key="SmtpPassword" value="x"``)
                and on command lines (``curl -u user:x``, ``mysql -px``,
                ``docker login -u u -p x``, ``--password=x``), lock codes and
                combinations, card security codes, ``user / password`` pairs
                after ``login``, codes written before their name (``482913 is
                your verification code``), Kubernetes ``name``/``value`` pairs,
                ``AccountKey=`` of connection strings, password words in
                other languages (``mot de passe``, ``contraseña``,
                ``パスワード``), PUK codes, codes read out in groups or words
                (``55 21 90``, ``six one nine two``), keypad and alarm codes,
                shell variables (``PGPASSWORD=x psql``), calls naming a secret
                (``define('DB_PASSWORD', 'x')``), table columns headed by a
                password word, ``redis-cli -a x``, Chinese-named seed phrases,
                values of a secret's shape linked to a secret word close
                by (``the login for the NAS is admin and Vx9!kq2m``, ``x is
                the new password``: :mod:`~.sensitivity.nearby`), config and
                credential files read by their syntax (``smtp_pass = x``,
                ``.pgpass``, ``.netrc``: :mod:`~.sensitivity.structured`), and
                high-entropy strings (SSH and PEM public keys left alone; see
                :func:`.patterns.high_entropy_spans`)
=============== ================================================================ ==============

Text is scanned as typed and, when it holds JSON string escapes, decoded too
(``{"\\u5bc6\\u7801": "x"}`` is ``{"密码": "x"}``; JSON inside JSON up to three
levels), each finding mapped back to the escaped characters it came from. Full-width
forms are scanned as ASCII. A credential a line break cut is found whole
(:mod:`~.sensitivity.wrapped`), and a secret's value marked as an example is none
(``password: P@ssw0rd (example only)``: :mod:`~.sensitivity.examples`). The gate's own
marks (``[SECRET]``, ``[TOKEN:0e9d220616f0]``) are never found again, so cleaning twice
is cleaning once.

Deliberately not detected (documented gaps): phone numbers written as bare
digits without a ``+`` country code, a Chinese mobile prefix or separators
(``4155550123`` looks like any order number), local numbers without an area code
and without a word saying so (``room 555-0123`` is found after ``call``, not
alone), 17- and 18-digit card numbers, 15-digit pre-1999 Chinese IDs
(no checksum), pure-hex secrets without a keyword (indistinguishable from
hashes and git SHAs), names and addresses (use the optional Presidio adapter);
and of labelled secrets: a value in Chinese characters after ``是`` that
reads as prose (``密码是你的生日``; ``口令：芝麻开门`` is found), a plain English
word after a key or token label and ``:`` (``secret: practice`` reads as prose;
after ``=`` it is taken), a value named only by a sentence far before it, a
plain word after another language's password word and a copula or a space
(``la contraseña es incorrecta`` reads as prose; ``Passwort: x`` is found), a
network's plain word after ``wifi`` (``wifi moosetracks``: a name or a password),
and template defaults (``changeme``). A password hash (``$apr1$...``, ``$2b$...``)
is a hash, not a secret.

Default policy: **redact every kind**. Redaction keeps the message useful (the
sentence survives, the secret does not) and is what a user who did not think
about it expects; ``refuse`` is for callers who would rather get an error, and
``allow`` switches a kind off.

Example:
    >>> f = SensitivityFilter()
    >>> clean, found = f.apply("Mail me at li.lei@example.com or call 138-1234-5678.")
    >>> clean
    'Mail me at [EMAIL] or call [PHONE].'
    >>> [x.kind for x in found]
    ['email', 'phone']
    >>> strict = SensitivityFilter(SensitivityPolicy(actions={"card": "refuse"}))
    >>> strict.apply("我的卡号 6222 0200 0000 0000 000")
    Traceback (most recent call last):
    ...
    langgraph_memory.sensitivity.policy.SensitiveContentError: text contains a card number ...
"""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from langgraph_memory.core.records import Message
from langgraph_memory.sensitivity.examples import drop_examples
from langgraph_memory.sensitivity.patterns import (
    DETECTORS,
    KINDS,
    SHAPED_DETECTORS,
    Span,
    high_entropy_spans,
    names_a_secret,
    to_halfwidth,
    unescape,
)
from langgraph_memory.sensitivity.wrapped import over_breaks, secrets_over_breaks

__all__ = [
    "Action",
    "Finding",
    "SensitivityPolicy",
    "SensitivityFilter",
    "SensitiveContentError",
    "KINDS",
]

Action = Literal["redact", "refuse", "allow"]
_ACTIONS = ("redact", "refuse", "allow")
_LABELS = {
    "email": "an e-mail address",
    "phone": "a phone number",
    "cn_id": "a Chinese resident ID number",
    "ssn": "a US Social Security number",
    "card": "a card number",
    "iban": "an IBAN",
    "api_key": "an API key",
    "token": "an access token",
    "private_key": "a private key",
    "secret": "a password or secret",
}


class Finding(NamedTuple):
    """One sensitive span. Holds offsets, never the sensitive text itself (safe to log).

    Attributes:
        kind: What it is (``email``, ``card``...; see :data:`KINDS`).
        start: Offset of its first character in the scanned text.
        end: Offset just past its last character.
        action: What the policy does with it: ``redact``, ``refuse`` or ``allow``.
        detector: Which rule found it (``luhn``, ``entropy``, ``presidio``...).
    """

    kind: str
    start: int
    end: int
    action: str
    detector: str


class SensitiveContentError(ValueError):
    """Raised when the policy refuses content; nothing was stored.

    Attributes:
        kinds: The refused kinds found.
        field: Which field held them (``content``, ``metadata.note``...).
    """

    def __init__(self, field: str, kinds: Iterable[str], *, identifier: bool = False) -> None:
        self.field = field
        self.kinds = tuple(dict.fromkeys(kinds))
        #: Whether the field is an identifier (an id, a name, a version, a namespace):
        #: those are refused whatever the policy's action, as they are stored as given.
        self.identifier = identifier
        what = ", ".join(_LABELS.get(k, k) for k in self.kinds)
        if identifier:
            message = (
                f"{field} is an identifier and contains {what} ({', '.join(self.kinds)}); "
                "identifiers are stored as given, so one holding a secret is refused and "
                "nothing was stored. Use an opaque id instead."
            )
        else:
            message = (
                f"{field} contains {what} ({', '.join(self.kinds)}) and the sensitivity "
                "policy refuses it; nothing was stored. Remove it, or set the policy for "
                f"{self.kinds[0]!r} to 'redact' or 'allow' (WriteSection(sensitivity=...) in "
                "MemoryConfig(write=...))."
            )
        super().__init__(message)


@dataclass(frozen=True)
class SensitivityPolicy:
    """What to do with each kind of sensitive data. Immutable and hashable.

    Attributes:
        default: Action for every kind not in ``actions`` (``"redact"``).
        actions: Per-kind overrides, e.g. ``{"card": "refuse", "email": "allow"}``.
        placeholder: Replacement text; ``{kind}`` becomes the upper-cased kind.
        entropy_threshold: Bits per character above which a long random-looking
            token counts as a secret.
        entropy_min_length: Shortest token the entropy rule looks at.
        presidio: Also run Microsoft Presidio's analyzer (needs ``presidio-analyzer``
            and a spaCy model; off by default: slow and not needed for the kinds above).

    Example:
        >>> p = SensitivityPolicy.from_mapping({"default": "refuse", "email": "allow"})
        >>> p.action_for("email"), p.action_for("card")
        ('allow', 'refuse')
    """

    default: Action = "redact"
    actions: Mapping[str, Action] = field(default_factory=dict)
    placeholder: str = "[{kind}]"
    entropy_threshold: float = 3.5
    entropy_min_length: int = 20
    presidio: bool = False

    def __post_init__(self) -> None:
        if self.default not in _ACTIONS:
            raise ValueError(f"SensitivityPolicy.default must be one of {_ACTIONS}")
        if not isinstance(self.actions, Mapping):
            raise TypeError("SensitivityPolicy.actions must be a mapping of kind -> action")
        for kind, action in self.actions.items():
            if not isinstance(kind, str) or action not in _ACTIONS:
                raise ValueError(
                    f"SensitivityPolicy.actions[{kind!r}] = {action!r}; use one of {_ACTIONS}"
                )
        object.__setattr__(self, "actions", MappingProxyType(dict(self.actions)))
        if not isinstance(self.placeholder, str) or "{kind}" not in self.placeholder:
            raise ValueError("SensitivityPolicy.placeholder must contain '{kind}'")
        if isinstance(self.entropy_threshold, bool) or not isinstance(
            self.entropy_threshold, (int, float)
        ):
            raise TypeError("SensitivityPolicy.entropy_threshold must be a number")
        if isinstance(self.entropy_min_length, bool) or not isinstance(
            self.entropy_min_length, int
        ):
            raise TypeError("SensitivityPolicy.entropy_min_length must be an int")
        if self.entropy_min_length < 8:
            raise ValueError("SensitivityPolicy.entropy_min_length must be >= 8")

    def __hash__(self) -> int:
        return hash(
            (
                self.default,
                tuple(sorted(self.actions.items())),
                self.placeholder,
                self.entropy_threshold,
                self.entropy_min_length,
                self.presidio,
            )
        )

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> SensitivityPolicy:
        """Build a policy from ``{kind: action}``; the keys ``default``, ``placeholder``,
        ``entropy_threshold``, ``entropy_min_length`` and ``presidio`` set those fields."""
        if not isinstance(mapping, Mapping):
            raise TypeError(f"a sensitivity policy mapping is needed, got {type(mapping)}")
        names = {f.name for f in dataclasses.fields(cls)} - {"actions"}
        kwargs = {k: v for k, v in mapping.items() if k in names}
        actions = {k: v for k, v in mapping.items() if k not in names}
        return cls(**kwargs, actions=actions)

    @classmethod
    def coerce(cls, value: Any) -> SensitivityPolicy | None:
        """``None``, a policy, a mapping (see :meth:`from_mapping`) or an action name
        for every kind (``"refuse"``) -> a policy (or ``None``: no scanning at all)."""
        if value is None or isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls(default=value)  # type: ignore[arg-type]  # validated in __post_init__
        if isinstance(value, Mapping):
            return cls.from_mapping(value)
        raise TypeError(
            "sensitivity must be a SensitivityPolicy, a mapping of kind -> action, "
            f"an action name or None, got {type(value).__name__}"
        )

    def action_for(self, kind: str) -> Action:
        """The action for ``kind``."""
        return self.actions.get(kind, self.default)


#: A detector: text -> spans ``(start, end, kind, detector_name)``.
Detector = Callable[[str], Iterable[Span]]


#: How many clean texts a filter remembers (then it starts again).
_CLEAN_MEMO = 8192


_SHAPED = frozenset(("private_key", "api_key", "token"))


def _credentials_first(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` with a ``secret`` that holds a credential of a known shape and more cut
    before it (``token: eyJ...&expires_in=3600``, ``口令是 x the key sk-...``): the
    credential is reported as what it is, and what came before it is still a secret."""
    shaped = [s for s in spans if s[2] in _SHAPED]
    if not shaped or len(shaped) == len(spans):
        return spans
    out: list[Span] = []
    for s in spans:
        inner = [a for a, b, _, _ in shaped if s[0] <= a and b <= s[1] and b - a < s[1] - s[0]]
        if s[2] != "secret" or not inner:
            out.append(s)
            continue
        head = text[s[0] : min(inner)].rstrip(" \t,;:")
        if head.strip():  # the words before the credential: still the secret
            out.append((s[0], s[0] + len(head), s[2], s[3]))
    return out


#: The rest of a credential a line break cut (a terminal's or a chat window's width): one
#: run of its alphabet alone on the next line, with a letter and a digit.
_WRAPPED_REST = re.compile(
    r"\r?\n(?=[A-Za-z_\-]*[0-9])(?=[0-9_\-]*[A-Za-z])[A-Za-z0-9_\-]{10,}(?=[ \t]*(?:\r?\n|$))"
)


def _wrapped(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` with a credential of a known shape that ends its line and goes on, alone,
    on the next (``sk-proj-Xc81...`` then ``uJ1oRi5c...``) taken whole, so no half of it
    is left in clear; a line that starts a credential of its own is not a rest."""
    starts = {s[0] for s in spans if s[2] in _SHAPED}
    out: list[Span] = []
    for s in spans:
        if s[2] in _SHAPED and text.startswith(("\n", "\r\n"), s[1]):
            m = _WRAPPED_REST.match(text, s[1])
            if m is not None and not any(s[1] < a < m.end() for a in starts):
                s = (s[0], m.end(), s[2], s[3])
        out.append(s)
    return out


class SensitivityFilter:
    """Scans text with the built-in detectors (plus any given) and applies a policy.

    Args:
        policy: The policy (default: redact everything).
        detectors: Extra detectors, each ``text -> [(start, end, kind, name)]``
            (for example a :class:`~langgraph_memory.sensitivity.presidio.PresidioDetector`).

    Example:
        >>> SensitivityFilter().apply("身份证号 11010519491231002X，已登记")[0]
        '身份证号 [CN_ID]，已登记'
    """

    def __init__(
        self, policy: SensitivityPolicy | None = None, *, detectors: Iterable[Detector] = ()
    ) -> None:
        self.policy = policy or SensitivityPolicy()
        #: False when the policy allows every kind: :meth:`clean_message` then skips scanning.
        self.active = self.policy.default != "allow" or any(
            a != "allow" for a in self.policy.actions.values()
        )
        self._detectors: list[Detector] = [*DETECTORS, self._entropy, *detectors]
        #: The marks this filter writes (``[SECRET]``, ``[EMAIL:0f3306f460ed]``): nothing
        #: is found inside one, so redacting twice changes nothing (``[SECRET:1a2b...]``
        #: holds a label word, a colon and a value-like digest).
        mark = re.escape(self.policy.placeholder).replace(re.escape("{kind}"), "[A-Z_]+")
        self._marks = re.compile(rf"{mark}|\[[A-Z_]+:[0-9a-f]{{12}}\]")
        # texts this filter gave out: the storage boundary sees most of them again (a
        # message cleaned on the write path, an entry's text cleaned by its layer)
        self._clean: dict[tuple[int, int], None] = {}
        if self.policy.presidio:
            from langgraph_memory.sensitivity.presidio import PresidioDetector

            self._detectors.append(PresidioDetector())

    def _entropy(self, text: str) -> Iterable[Span]:
        return high_entropy_spans(
            text, self.policy.entropy_threshold, self.policy.entropy_min_length
        )

    def scan(self, text: str) -> list[Finding]:
        """Every sensitive span of ``text``, non-overlapping, in text order.

        Where findings overlap, the longest wins (then the kind listed first in
        :data:`KINDS`), so a card number is not also reported as a phone number.
        """
        if not text:
            return []
        half = to_halfwidth(text)
        spans = [s for detect in self._detectors for s in detect(half) if s[1] > s[0]]
        if "\\" in half and (decoded := unescape(half)) is not None:
            # JSON written with escapes ('{"\\u5bc6\\u7801": "x"}', '{\\"password\\": ...'):
            # scanned decoded too, each finding mapped back to the characters it came from
            plain, offsets = decoded
            spans += [
                (offsets[a], offsets[b], kind, name)
                for detect in self._detectors
                for a, b, kind, name in detect(to_halfwidth(plain))
                if b > a
            ]
        spans = _credentials_first(half, spans)
        spans = drop_examples(half, spans, ("secret",))  # password: x (example only)
        if "\n" in half:  # a credential a line break cut: whole (ghp_x...\n...y)
            spans = secrets_over_breaks(half, _wrapped(half, spans))
            spans += over_breaks(half, SHAPED_DETECTORS, spans)
        rank = {k: i for i, k in enumerate(KINDS)}
        spans.sort(key=lambda s: (-(s[1] - s[0]), rank.get(s[2], len(rank)), s[0]))
        if "[" in half or self.policy.placeholder[0] != "[":
            marks = [m.span() for m in self._marks.finditer(half)]
            spans = [s for s in spans if not any(a <= s[0] < b for a, b in marks)]
        taken: list[Span] = []  # in text order, none overlapping
        starts: list[int] = []
        for s in spans:
            i = bisect.bisect_right(starts, s[0])
            if (i and taken[i - 1][1] > s[0]) or (i < len(taken) and taken[i][0] < s[1]):
                continue
            taken.insert(i, s)
            starts.insert(i, s[0])
        return [Finding(k, a, b, self.policy.action_for(k), d) for a, b, k, d in taken]

    def apply(
        self, text: str, *, field: str = "text", refuse: bool = True
    ) -> tuple[str, list[Finding]]:
        """Redact ``text`` per the policy.

        Args:
            text: The text.
            field: The field named in a refusal.
            refuse: ``False`` where nobody could be told of a refusal (the library's
                background threads): a span the policy refuses is redacted instead.

        Returns:
            The clean text and every finding (``allow`` ones included, left as they were).

        Raises:
            SensitiveContentError: When a finding's action is ``refuse`` (and ``refuse``).
        """
        if (len(text), hash(text)) in self._clean:  # came out of this filter before
            return text, []
        findings = self.scan(text)
        refused = [f.kind for f in findings if f.action == "refuse"]
        if refused and refuse:
            raise SensitiveContentError(field, refused)
        out: list[str] = []
        pos = 0
        for f in findings:
            if f.action != "allow":
                out += [text[pos : f.start], self.policy.placeholder.format(kind=f.kind.upper())]
                pos = f.end
        out.append(text[pos:])
        clean = "".join(out)
        if len(self._clean) >= _CLEAN_MEMO:
            self._clean.clear()
        self._clean[(len(clean), hash(clean))] = None  # a key, not the text: pastes are long
        return clean, findings

    def known_clean(self, text: str) -> bool:
        """Whether ``text`` came out of this filter before (nothing is left to find)."""
        return (len(text), hash(text)) in self._clean

    def redact(self, text: str, *, field: str = "text") -> str:
        """Just the clean text of :meth:`apply`."""
        return self.apply(text, field=field)[0]

    def pseudonym(self, text: str, *, field: str = "key", refuse: bool = True) -> str:
        """``text`` as an identifier (a store key, a namespace label, a dict key): each
        sensitive span to redact becomes ``[KIND:digest]``, where the digest is the first
        12 hex digits of the span's SHA-256, so the same secret always gives the same
        identifier and two different ones do not collide; a refused span raises.

        The digest is a pseudonym, not encryption: a guessable value (a phone number)
        can be found again by trying candidates. Keep secrets out of identifiers.

        Args:
            text: The identifier.
            field: The field named in a refusal.
            refuse: ``False`` for a lookup (nothing is stored): a span the policy refuses
                becomes its pseudonym too instead of raising.

        Example:
            >>> SensitivityFilter().pseudonym("notes of a@b.io")
            'notes of [EMAIL:0f3306f460ed]'
        """
        findings = self.scan(text)
        refused = [f.kind for f in findings if f.action == "refuse"]
        if refused and refuse:
            raise SensitiveContentError(field, refused)
        out: list[str] = []
        pos = 0
        for f in findings:
            if f.action != "allow":
                digest = hashlib.sha256(text[f.start : f.end].encode()).hexdigest()[:12]
                out += [text[pos : f.start], f"[{f.kind.upper()}:{digest}]"]
                pos = f.end
        out.append(text[pos:])
        return "".join(out)

    def clean_label(self, text: str, *, field: str = "key", refuse: bool = True) -> str:
        """:meth:`pseudonym` when the policy scans at all, else ``text`` as it is."""
        return self.pseudonym(text, field=field, refuse=refuse) if self.active else text

    def apply_value(self, value: Any, *, field: str = "metadata") -> Any:
        """Redact every string inside a JSON-like value (dict values, list items); a
        dict key holding a secret becomes its :meth:`pseudonym`, and the value of a key
        that names a secret (``password``, ``api_key``, ``密码``...: see
        :func:`~langgraph_memory.sensitivity.patterns.names_a_secret`) becomes
        ``[SECRET]`` (or is refused, when the policy refuses secrets).

        Example:
            >>> SensitivityFilter().apply_value({"contact": ["a@b.io", 3], "n": 1})
            {'contact': ['[EMAIL]', 3], 'n': 1}
            >>> SensitivityFilter().apply_value({"db": {"Password": "hunter2"}})
            {'db': {'Password': '[SECRET]'}}
        """
        if isinstance(value, str):
            return self.redact(value, field=field)
        if isinstance(value, Mapping):
            out = {}
            for k, v in value.items():
                name = f"{field}.{k}"
                if isinstance(k, str) and self.hides(k, v):
                    out[self.pseudonym(k, field=f"{field} key")] = self.hidden(name)
                elif isinstance(k, str):
                    out[self.pseudonym(k, field=f"{field} key")] = self.apply_value(v, field=name)
                else:
                    out[k] = self.apply_value(v, field=name)
            return out
        if isinstance(value, (list, tuple)):
            return [self.apply_value(v, field=f"{field}[{i}]") for i, v in enumerate(value)]
        return value

    def hides(self, key: str, value: Any) -> bool:
        """Whether the value of ``key`` is hidden whatever it holds: the key names a
        secret, the policy does not allow secrets, and the value is a scalar (a mapping
        or a list under it is walked key by key instead)."""
        if value is None or isinstance(value, (bool, Mapping, list, tuple)):
            return False
        return self.policy.action_for("secret") != "allow" and names_a_secret(key)

    def hidden(self, field: str, *, refuse: bool = True) -> str:
        """What a hidden value is stored as (``[SECRET]``), or a refusal naming ``field``
        when the policy refuses secrets (and ``refuse``; see :meth:`apply`).

        Raises:
            SensitiveContentError: When the policy refuses secrets.
        """
        if refuse and self.policy.action_for("secret") == "refuse":
            raise SensitiveContentError(field, ["secret"])
        return self.policy.placeholder.format(kind="SECRET")

    def clean(self, value: Any, *, field: str = "value") -> Any:
        """A str or JSON-like value through the policy (:meth:`apply_value`), or ``value``
        itself when the policy allows every kind (nothing is scanned then).

        Example:
            >>> SensitivityFilter(SensitivityPolicy(default="allow")).clean(("a@b.io",))
            ('a@b.io',)
        """
        return self.apply_value(value, field=field) if self.active else value

    def clean_message(self, msg: Message, field: str = "content") -> Message:
        """The message with its content and metadata string values redacted.

        Ids (user, session, message) and the speaker ``name`` are the application's
        identifiers and are kept as given.

        Raises:
            SensitiveContentError: When the policy refuses something in it.
        """
        if not self.active:
            return msg
        content = self.redact(msg.content, field=field)
        metadata = self.apply_value(msg.metadata) if msg.metadata else msg.metadata
        if content == msg.content and metadata == msg.metadata:
            return msg
        return dataclasses.replace(msg, content=content, metadata=metadata)
