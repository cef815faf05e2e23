"""The detector widened by class (issue 38, round det10): keys of more providers given
away by their prefix, and the classes below. Values and phrasings of our own, English and
Chinese, positives and look-alikes per class."""

from __future__ import annotations

import pytest

from langgraph_memory.sensitivity.policy import SensitivityFilter

FILTER = SensitivityFilter()


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start : f.end]) for f in FILTER.scan(text)]


# -- keys given away by their provider's prefix ------------------------------------------
@pytest.mark.parametrize(
    "key",
    [
        "nfp_" + "Zk3Lq9Rm2TpX7vBn0Wc4" + "Hs8Jd1Fg5Ka6Yu7Io",  # Netlify personal access token
        "rubygems_" + "3e8d1c0a9b7f6e5d" * 3,  # RubyGems API key
        "re_Gh7Kq2Lm_" + "Tz9Xc4Vb8Nw1Pq6Ry3Sd5Fa2",  # Resend
        "xkeysib-" + "0a1b2c3d4e5f6789" * 4 + "-Qw3Er5Ty7Ui9Op1A",  # Brevo
        "CCIPAT_Mz4Nq8Rk2Lw6Tp0Xv3Bc7Y_" + "9c8b7a6f5e4d3c2b1a09" * 2,  # CircleCI
        "pul-" + "7e6d5c4b3a29180f" * 2 + "e1d2c3b4",  # Pulumi
        "napi_" + "k3m9q2x7w1z8p4r6" * 4,  # Neon
        "4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c-us21",  # Mailchimp, its data centre after it
    ],
)
def test_more_provider_prefixes_are_api_keys(key: str) -> None:
    for text in (f"KEY={key}", f"这是我的 key：{key}", f"use {key} for the deploy"):
        assert _found(text) == [("api_key", key)]


@pytest.mark.parametrize(
    "text",
    [
        "rubygems_version is pinned in the Gemfile",
        "re_compile_the_pattern_for_each_request is slow",
        "pul-request template is in the repo",
        "napi_create_function is the N-API entry point",
        "the en-us locale and the de-de one",
        "pul-" + "x" * 40,  # a placeholder's tail
    ],
)
def test_no_key_in_their_look_alikes(text: str) -> None:
    assert [k for k, _ in _found(text) if k == "api_key"] == []
