"""The Authentication-Results reader (bot.mail.authentication): RFC 8601's forms, the trust
in authserv-ids, and hostile values, which are read as nothing and never raise."""

from __future__ import annotations

from email import message_from_bytes, policy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.mail.authentication import (
    MAX_HEADERS,
    AuthenticationResults,
    AuthservTrust,
    check,
    check_message,
    header_values,
    parse,
)

TRUST = AuthservTrust.for_address("Mancala <mancala@bot.test>", ["mx.provider.net"])


def reason(*values: str) -> str | None:
    failure = check(list(values), TRUST)
    return failure.reason if failure else None


@pytest.mark.parametrize(
    "value, expected",
    [
        ("mx.bot.test; spf=pass", ("mx.bot.test", (("spf", "pass"),))),
        (
            "MX.BOT.TEST; SPF=FAIL; DMARC=Fail",
            ("mx.bot.test", (("spf", "fail"), ("dmarc", "fail"))),
        ),
        # RFC 8601's own examples: a version after the id, comments, properties, a reason
        (
            "example.com 1; (comment) spf=pass (sender is authorized) smtp.mailfrom=example.net;"
            " dkim=pass (good signature) header.d=example.net",
            ("example.com", (("spf", "pass"), ("dkim", "pass"))),
        ),
        (
            'mail.example.org; dmarc=fail reason="p=reject; aligned=no" header.from=x.net',
            ("mail.example.org", (("dmarc", "fail"),)),
        ),
        ("mx.bot.test; none", ("mx.bot.test", ())),
        ("mx.bot.test", ("mx.bot.test", ())),
        ("mx.bot.test; spf/1 = fail", ("mx.bot.test", (("spf", "fail"),))),
        ('"mx.bot.test"; spf=fail', ("mx.bot.test", (("spf", "fail"),))),
        ("(leading comment) mx.bot.test.; spf=fail", ("mx.bot.test", (("spf", "fail"),))),
        ("mx.bot.test;\r\n\tspf=fail\r\n smtp.mailfrom=a@b.c", ("mx.bot.test", (("spf", "fail"),))),
        # a part that is not method=result is skipped, the others read
        (
            "mx.bot.test; ;; garbage here; =fail; spf=; dmarc=fail",
            ("mx.bot.test", (("dmarc", "fail"),)),
        ),
    ],
)
def test_header_forms(value, expected):
    assert parse(value) == AuthenticationResults(*expected)


@pytest.mark.parametrize(
    "value",
    ["", "   ", "; spf=fail", "(only a comment)", "(unclosed; spf=fail", '"', "=;=;=", "\x00\x01"],
)
def test_values_naming_no_authserv_id_are_nothing(value):
    assert parse(value) is None
    assert reason(value) is None


def test_what_counts_as_a_failure():
    assert reason("mx.bot.test; spf=fail smtp.mailfrom=a@x.net") == "spf_fail"
    assert reason("mx.bot.test; dmarc=fail (p=none) header.from=x.net") == "dmarc_fail"
    assert reason("mx.bot.test; spf=fail; dmarc=fail") == "dmarc_fail"  # the more telling
    # softfail, neutral, none, errors and a DKIM failure alone do not silence the bot
    for result in ("softfail", "neutral", "none", "temperror", "permerror", "pass", "policy"):
        assert reason(f"mx.bot.test; spf={result}; dmarc=pass") is None
    assert reason("mx.bot.test; dkim=fail; spf=pass; dmarc=pass") is None
    assert reason("mx.bot.test; none") is None
    # a failure only inside a comment or a quoted reason is no failure
    assert reason("mx.bot.test; spf=pass (dmarc=fail)") is None
    assert reason('mx.bot.test; spf=pass reason="dmarc=fail"') is None
    assert reason("mx.bot.test; spf=pass; x-dmarc=fail; dmarcx=fail") is None


def test_only_the_operators_authserv_ids_are_believed():
    for ident in ("bot.test", "mx.bot.test", "a.b.bot.test", "MX.Bot.Test", "mx.provider.net"):
        assert reason(f"{ident}; spf=fail") == "spf_fail", ident
    for ident in ("evilbot.test", "bot.test.evil.net", "provider.net", "mx2.provider.net", "test"):
        assert reason(f"{ident}; spf=fail; dmarc=fail") is None, ident
    # a forged header that is not ours changes nothing, above or below ours
    assert reason("evil.net; spf=pass; dmarc=pass", "mx.bot.test; dmarc=fail") == "dmarc_fail"
    assert reason("mx.bot.test; spf=fail", "evil.net; spf=pass; dmarc=pass") == "spf_fail"
    # a trusted "pass" cannot outvote a trusted "fail", wherever either is
    assert reason("mx.bot.test; spf=pass", "mx.bot.test; spf=fail") == "spf_fail"
    # a bot whose domain is unknown believes only what the operator configured
    assert not AuthservTrust.for_address("", ()).trusts("localhost")
    assert AuthservTrust.for_address("nobody", ("mx.isp.net",)).trusts("MX.ISP.NET")


def test_headers_are_read_from_the_raw_message_top_first():
    raw = (
        b"Authentication-Results: mx.bot.test;\r\n  spf=fail (folded)\r\n"
        b"Received: from x\r\n"
        b"authentication-results: evil.net; spf=pass\r\n"
        b"Authentication-Results: \xff\xfe; spf=fail\r\n"  # 8-bit garbage
        b"From: a@x.net\r\n\r\nbody"
    )
    message = message_from_bytes(raw, policy=policy.default)
    values = header_values(message)
    assert len(values) == 3 and values[0].startswith("mx.bot.test")
    failure = check_message(message, TRUST)
    assert failure is not None and failure.authserv_id == "mx.bot.test"
    many = b"".join(b"Authentication-Results: evil.net; spf=pass\r\n" for _ in range(500))
    message = message_from_bytes(many + b"From: a@x.net\r\n\r\nx", policy=policy.default)
    assert len(header_values(message)) == MAX_HEADERS


def test_hostile_values_are_bounded_and_fast():
    import time

    start = time.perf_counter()
    for value in (
        "mx.bot.test; " + "(" * 100_000 + "spf=fail",
        "mx.bot.test; " + '"' * 100_000,
        "mx.bot.test" + "; spf=pass" * 50_000 + "; spf=fail",  # past the bound: not read
        "\\" * 100_000,
        "mx.bot.test; spf=" + "a" * 100_000,
    ):
        assert reason(value) is None
    assert time.perf_counter() - start < 2.0  # linear scans of a bounded prefix


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_read_without_raising(value):
    parsed = parse(value)
    assert parsed is None or parsed.authserv_id == parsed.authserv_id.lower()
    check([value, "mx.bot.test; " + value], TRUST)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "mx.bot.test",
                "evil.net",
                ";",
                " ",
                "spf",
                "dmarc",
                "=",
                "fail",
                "pass",
                "(",
                ")",
                '"',
                "\\",
                "/1",
                "softfail",
                "\r\n ",
            ]
        ),
        max_size=40,
    )
)
def test_header_shaped_garbage_is_read_without_raising(pieces):
    value = "".join(pieces)
    failure = check([value], TRUST)
    if failure is not None:  # a failure is only ever what a trusted header wrote
        assert TRUST.trusts(failure.authserv_id) and failure.result == "fail"
