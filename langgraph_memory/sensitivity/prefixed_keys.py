"""Keys whose provider's prefix gives them away (``sk-proj-...``, ``ghp_...``, ``AKIA...``,
``xoxb-...``, a Telegram bot's ``123456789:AA...``): each is an ``api_key`` wherever it
stands, labelled or not, unless its tail is a placeholder's (``glpat-xxxx...``).

Example:
    >>> text = "push with ghp_rHxmYGiNIV2sKlZy2HM5dAAkIIKiXhu9hVfI please"
    >>> [(text[a:b], kind) for a, b, kind, _ in api_keys(text)]
    [('ghp_rHxmYGiNIV2sKlZy2HM5dAAkIIKiXhu9hVfI', 'api_key')]
    >>> list(api_keys("AKIAXXXXXXXXXXXXXXXX"))
    []
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["api_keys"]

#: (start, end, kind, detector name), as :data:`langgraph_memory.sensitivity.patterns.Span`
Span = tuple[int, int, str, str]

_A = re.ASCII
#: Prefixed keys, grouped by their first character (the regex engine then compares one
#: character per group at each position, not one per key shape).
_API_KEYS = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:"
    r"s(?:k-(?:ant|proj|svcacct|admin)-[A-Za-z0-9_\-]{12,}"
    r"|k-[A-Za-z]{2,10}-[A-Za-z0-9_\-]{20,}"  # other scoped OpenAI keys: sk-None-...
    r"|k-(?=[A-Za-z]*[0-9])(?=[0-9]*[A-Za-z])[A-Za-z0-9]{12,}"  # short ones: a digit, a letter
    r"|k_[0-9a-f]{48}|k\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}"  # ElevenLabs, Mapbox
    r"|hippo_(?:live|test)_[0-9a-f]{40}|gp_[0-9a-f]{40}"  # Shippo, Sourcegraph
    r"|k_(?:live|test)_[A-Za-z0-9]{10,}"
    r"|bp_[A-Za-z0-9_\-]{30,}|b_secret_[A-Za-z0-9_\-]{20,}"  # Supabase
    r"|ntry[su]_[A-Za-z0-9_\-]{30,}"  # Sentry (organisation and user tokens)
    r"|q0(?:atp|csp|idp)-[A-Za-z0-9_\-]{22,}|ecret_[A-Za-z0-9]{43}"  # Square, Notion (old)
    r"|hp(?:at|ss|ca|pa)_[a-fA-F0-9]{32})"  # Shopify
    r"|r(?:k_(?:live|test)_[A-Za-z0-9]{10,}|8_[A-Za-z0-9_\-]{30,}|nd_[A-Za-z0-9]{24,}"  # Stripe,
    # Replicate, Render, RubyGems, Resend
    r"|ubygems_[0-9a-f]{48}|e_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}|dme_[a-z0-9]{70})"  # ReadMe
    r"|whsec_[A-Za-z0-9+/=]{24,}"  # Stripe webhook secret
    r"|g(?:h[pousr]_[A-Za-z0-9]{30,}|ithub_pat_[A-Za-z0-9_]{30,}"
    r"|l(?:pat|ptt|dt|rt|cbt|soat|ft|imt|agent)-[A-Za-z0-9_\-]{20,}"  # GitLab
    r"|sk_[A-Za-z0-9_\-]{30,}"  # Groq
    r"|lsa_[A-Za-z0-9]{20,}_[0-9a-f]{8}|lc_[A-Za-z0-9+/]{32,}={0,2})"  # Grafana
    r"|x(?:ox[a-z]-[A-Za-z0-9\-]{10,}|oxe\.xox[bp]-\d-[A-Za-z0-9\-]{20,}"  # Slack
    r"|app-\d-[A-Za-z0-9\-]{20,}|ai-[A-Za-z0-9]{40,}"  # Slack apps, xAI
    r"|(?:keysib|smtpsib)-[0-9a-f]{64}-[A-Za-z0-9]{16})"  # Brevo (Sendinblue)
    r"|A(?:KIA[0-9A-Z]{16}|SIA[0-9A-Z]{16}"  # AWS
    r"|KID[A-Za-z0-9]{13,40}"  # Tencent Cloud SecretId
    r"|Iza[0-9A-Za-z_\-]{33,37}"  # Google
    r"|GE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}"  # an age identity (bech32)
    r"|KLT[A-Za-z0-9_\-]{32,}|TATT3[A-Za-z0-9_\-=]{50,}|TBB[A-Za-z0-9]{32})"  # Volcengine,
    # Atlassian, Bitbucket
    r"|LTAI[A-Za-z0-9]{12,30}"  # Alibaba Cloud AccessKey ID
    r"|key-[0-9a-f]{32}"  # Mailgun
    r"|GOCSPX-[A-Za-z0-9_\-]{20,}"  # Google OAuth client secret
    r"|ya29\.[A-Za-z0-9_\-]{20,}"  # Google OAuth access token
    r"|f(?:igd_[A-Za-z0-9_\-]{30,}|w_[A-Za-z0-9]{24,}|o1_[A-Za-z0-9_\-]{43})"  # Figma, Fireworks,
    # Fly.io
    r"|p(?:plx-[A-Za-z0-9]{40,}|ypi-AgE[A-Za-z0-9_\-]{50,}|csk_[A-Za-z0-9_]{40,}"  # Perplexity,
    # PyPI, Pinecone
    r"|at[A-Za-z0-9]{14}\.[0-9a-f]{64}|ul-[0-9a-f]{40}"  # Airtable personal access token, Pulumi
    r"|scale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{32,64}|nu_[A-Za-z0-9]{36})"  # PlanetScale, Prefect
    r"|n(?:tn_[A-Za-z0-9]{30,}|pm_[A-Za-z0-9]{36,40}|vapi-[A-Za-z0-9_\-]{40,}"  # Notion, npm,
    r"|f[pc]_[A-Za-z0-9]{36,40}|api_[a-z0-9]{64})"  # NVIDIA, Netlify, Neon
    r"|l(?:in_api_[A-Za-z0-9]{30,}|sv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10})"  # Linear, LangSmith
    r"|PMAK-[A-Za-z0-9\-]{24,}|NR(?:AK|II)-[A-Za-z0-9\-]{24,}"  # Postman, New Relic
    r"|d(?:api[0-9a-f]{32}|o[opr]_v1_[a-f0-9]{64}|ckr_pat_[A-Za-z0-9_\-]{20,}"  # Databricks,
    # DigitalOcean, Docker Hub, Doppler
    r"|p\.(?:st|pt|sa|ct|scim|audit)\.(?:[a-z0-9_\-]{2,35}\.)?[A-Za-z0-9]{40,})"
    r"|h(?:f_[A-Za-z0-9]{30,}|v[sbr]\.[A-Za-z0-9_\-]{24,})"  # Hugging Face, Vault
    r"|S(?:G\.[A-Za-z0-9_\-]{20,24}\.[A-Za-z0-9_\-]{40,46}|K[0-9a-fA-F]{32})"  # SendGrid, Twilio
    r")(?![A-Za-z0-9_\-])",
    _A,
)
#: Keys whose first letter no other prefix has (``t``, ``b``, ``C``, ``H``: letters which
#: would slow the scan of every text): kept apart, looked for after their prefix.
_RARE_KEYS = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:tvly-(?:dev-|prod-)?[A-Za-z0-9]{24,}"  # Tavily
    r"|tskey-[a-z]{3,10}-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}"  # Tailscale
    r"|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-]{40,}"  # Terraform Cloud / Enterprise
    r"|bce-v3/ALTAK-[A-Za-z0-9]{16,}/[0-9a-f]{32,}"  # Baidu Qianfan
    r"|[0-9a-f]{32}-us\d{1,2}"  # Mailchimp (its data centre after the key)
    r"|sl\.[A-Za-z0-9_\-]{130,}"  # Dropbox (short-lived)
    r"|HRKU-[A-Za-z0-9_\-]{60}"  # Heroku
    r"|CCIP(?:AT|RJ)_[A-Za-z0-9]{22}_[0-9a-f]{40})(?![A-Za-z0-9_\-])",  # CircleCI
    _A,
)
#: Telegram bot tokens (they start with a digit: kept apart, looked for after ``:AA``).
_TELEGRAM = re.compile(r"(?<![A-Za-z0-9_\-])\d{8,10}:AA[A-Za-z0-9_\-]{33}(?![A-Za-z0-9_\-])", _A)


def api_keys(text: str) -> Iterator[Span]:
    """Prefixed keys, but not a placeholder written in their shape (``glpat-xxxx...``,
    ``AKIAXXXXXXXXXXXXXXXX``, ``sk_live_000000...``): a real key's tail has many
    different characters."""
    matches = list(_API_KEYS.finditer(text))
    if ":AA" in text:
        matches += _TELEGRAM.finditer(text)
    if (
        "tvly-" in text
        or "bce-v3/" in text
        or "tskey-" in text
        or ".atlasv1." in text
        or "-us" in text
        or "sl." in text
        or "HRKU-" in text
        or "CCIP" in text
    ):
        matches += _RARE_KEYS.finditer(text)
    for m in matches:
        tail = m.group()[-16:].lower()
        if len(set(tail)) > 3:
            yield m.start(), m.end(), "api_key", "prefix"
