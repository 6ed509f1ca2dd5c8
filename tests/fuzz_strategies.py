"""Hypothesis strategies for hostile input: what a careless or malicious user types as a
ruleset, a move, a written position or a command line. ``tests/test_fuzz.py`` runs them
derandomized in CI; ``bench/fuzz.py`` runs them at any length.

The odd pieces are the classes that once crashed something: digits that ``str.isdigit``
accepts but ``int`` refuses, numbers past Python's 4,300-digit limit, control characters and
NULs, lone surrogates (undecodable bytes), typographic dashes, and ids past 64 bits.
"""

from __future__ import annotations

import base64
import random

from hypothesis import strategies as st

from engine import Position, Ruleset, render
from engine.ruleset import APPLET_WORDS, PARAMETERS, PRESETS

ODD_DIGITS = ["¹", "²", "①", "⑫", "４", "٣", "໒", "𝟠", "Ⅻ", "½"]
ODD_TEXT = ["\x00", "\r", "\n", "\x1b[31m", "\u202e", "\ud800", "–", "—", "−", "\ufeff", " "]
HUGE = ["9" * 5000, "1" + "0" * 4400, "0" * 300 + "7", "-" + "9" * 30, "1e999", "nan", "inf"]


def _odd_number() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(-3, 20).map(str),
        st.sampled_from(HUGE),
        st.lists(st.sampled_from(ODD_DIGITS + list("0123456789")), min_size=1, max_size=4).map(
            "".join
        ),
        st.integers(2**62, 2**70).map(str),
    )


def _junk(max_size: int = 12) -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=max_size), st.sampled_from(ODD_TEXT))


def _value(key: str) -> st.SearchStrategy[str]:
    param = PARAMETERS.get(key)
    choices = list(param.choices) if param else ["yes", "no", "across", "home"]
    return st.one_of(
        st.sampled_from(choices + ["yes", "no", "none", ""]),
        _odd_number(),
        st.lists(_odd_number(), min_size=1, max_size=4).map("-".join),
        _junk(),
    )


@st.composite
def spec_texts(draw) -> str:
    """Ruleset strings, mostly near the grammar (``name:key=value,...``), some far from it."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(_junk(60), st.sampled_from(HUGE)))
    names = sorted(PRESETS) + ["mancala", "awale", "awari", "chess", ""]
    name = draw(st.sampled_from(names))
    name = draw(st.sampled_from([name, name.upper(), f" {name} "]))
    keys = sorted(PARAMETERS) + sorted(APPLET_WORDS) + ["foo", "pits ", "SEEDS", "capture-side"]
    items = []
    for key in draw(st.lists(st.sampled_from(keys), max_size=5)):
        shape = draw(st.integers(0, 5))
        items.append(key if shape == 0 else f"{key}={draw(_value(key.strip().lower()))}")
    return name + (":" + ",".join(items) if items or draw(st.booleans()) else "")


def move_texts() -> st.SearchStrategy[str]:
    letters = st.sampled_from(list("ABCDEFGHabcdefgh"))
    return st.one_of(
        letters,
        st.tuples(letters, st.sampled_from(["<", ">", "‹", "＞", " ", ""])).map("".join),
        st.sampled_from(["Ｅ", "ｅ", "e\x00", "E" * 5000, "", " ", "1", "A B"]),
        _junk(),
    )


def _mutate_line(line: str, rng: random.Random) -> str:
    tokens = line.split() or [""]
    i = rng.randrange(len(tokens))
    tokens[i] = rng.choice(ODD_DIGITS + ODD_TEXT + HUGE[:3] + ["–", "-", "", "12345678901"])
    return "   ".join(tokens)


@st.composite
def position_texts(draw, rules: Ruleset) -> str:
    """A board as the renderer draws it somewhere in a random game, then bent: a count
    swapped for something odd, a line doubled or dropped, a result line added, fences."""
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    pos = Position.initial(rules, rng=rng)
    for _ in range(rng.randrange(0, 80)):
        if pos.is_over():
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    lines = render(pos, rng.choice(["south", "north"])).splitlines()
    for _ in range(draw(st.integers(0, 3))):
        what = rng.randrange(6)
        i = rng.randrange(len(lines))
        if what == 0:
            lines[i] = _mutate_line(lines[i], rng)
        elif what == 1:
            lines.insert(i, lines[i])
        elif what == 2 and len(lines) > 1:
            del lines[i]
        elif what == 3:
            lines.insert(
                i,
                rng.choice(
                    [
                        "Game over (a row is empty).",
                        "Game over (nonsense).",
                        "Captured: North " + "9" * 5000 + ", South 1.",
                        "Captured: North ①, South ²",
                        "```",
                        "North to move.",
                    ]
                ),
            )
        elif what == 4:
            lines[i] = lines[i].replace("-", rng.choice(["–", "—", "−"]))
        else:
            lines[i] = draw(_junk(40))
    return "\n".join(lines)


def game_ids() -> st.SearchStrategy:
    """What a surface might pass as a game, challenge or ply number."""
    return st.one_of(
        st.integers(-2, 5),
        st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**30]),
        st.sampled_from([None, True, 1.5, "1", "①", "9" * 5000, [], {}]),
    )


# -- mail ---------------------------------------------------------------------------------------

CRLF_WORD = "=?utf-8?b?QW5uDQpCY2M6IGV2aWxAeC5vcmc=?="  # an encoded word of "Ann\r\nBcc: ..."
ADDRESSES = [
    b"ann@example.org",
    b"Ann <ann@example.org>",
    b"Jos\xe9 <jose@example.es>",
    "José <jose@example.es>".encode(),
    "josé@example.es".encode(),
    CRLF_WORD.encode() + b" <ann@example.org>",
    b'"ann\x01" <ann\x01@example.org>',
    b'"ann <ann@example.org>',
    b"<>",
    b"a" * 300 + b"@example.org",
    b"an\x00n <a@b.org>",
    b"mancala@bot.test",
    b"mailer-daemon@example.org",
    b"",
    b"ann@localhost",
    b"=?x-unknown?q?A?= <ann@example.org>",
    b"ann@example.org, bob@example.org",
]
CHARSETS = [
    b"utf-8",
    b"us-ascii",
    b"iso-8859-1",
    b"cp1252",
    b"koi8-r",
    b"idna",
    b"cp437",
    b"utf-7",
    b"utf-16",
    b"x-unknown",
    b'"utf\x00-8"',
    b"a b",
    b"",
    b"9" * 300,
]
BODIES = [
    "help",
    "games",
    "challenge bob@example.org wari",
    "challenge ai kalah as north",
    "challenge " + "b" * 300 + "@example.org",
    "accept",
    "decline",
    "resign",
    "Move 3: C",
    "Move 999999999999999999999: C",
    "Rules: wari",
    "Rules: kalah\nMove: c",
    "f e d c b a\n4 4 4 4 4 4\n4 4 4 4 4 4\nA B C D E F\nRules: wari\nMove: C",
    "Rules: wari:seeds=" + "9" * 5000,
    "Move: ①",
    "<![if !mso]><p>Move: C</p><![endif]",
    "<table><tr><td>4</td><td>–</td></tr></table>",
    "> Move: A\nOn Mon, X wrote:",
    "\x00\x1b[31m\u202e",
    "-- \nsig",
]


@st.composite
def raw_mails(draw) -> bytes:
    """A whole message as a mail server delivers it: headers hostile or broken in each of the
    ways that once crashed the reader or reached a reply's headers, any transfer encoding and
    charset, MIME nesting shallow or far too deep, and a body of commands, moves and junk."""

    def header(name: bytes, values) -> bytes:
        return name + b": " + draw(values) + b"\r\n"

    def text(max_size=40):
        return _junk(max_size).map(lambda t: t.encode("utf-8", "surrogatepass"))

    head = header(b"From", st.sampled_from(ADDRESSES))
    if draw(st.integers(0, 4)) == 0:
        head += header(b"Reply-To", st.sampled_from(ADDRESSES))
    head += header(
        b"To",
        st.sampled_from(
            [b"mancala@bot.test", b"mancala+g1-abc@bot.test", b"<>", b"undisclosed-recipients:;"]
        ),
    )
    head += header(
        b"Subject",
        st.one_of(
            text(),
            st.sampled_from(
                [
                    CRLF_WORD.encode(),
                    b"caf\xe9",
                    b"[mancala game 1 abcdefghij]",
                    b"[mancala challenge 99999999999999999999 x]",
                    b"x" * 3000,
                ]
            ),
        ),
    )
    head += header(
        b"Message-ID",
        st.one_of(
            st.sampled_from(
                [b"<m1@example.org>", CRLF_WORD.encode(), b"<a\x00b@x>", b"<" + b"x" * 400 + b"@y>"]
            ),
            text(),
        ),
    )
    for name in (b"References", b"In-Reply-To"):
        if draw(st.booleans()):
            head += header(
                name,
                st.sampled_from(
                    [
                        b"<mancala.g1.m3.abc@bot.test>",
                        b"<mancala.g" + b"9" * 5000 + b".m1.x@bot>",
                        CRLF_WORD.encode(),
                        b"<a@b> <c@d> junk <e@f>",
                    ]
                ),
            )
    if draw(st.integers(0, 5)) == 0:
        head += header(b"Auto-Submitted", st.sampled_from([b"auto-replied", b"no", b"\x00"]))
    body = draw(
        st.lists(st.one_of(st.sampled_from(BODIES), _junk(30)), min_size=1, max_size=4).map(
            "\n".join
        )
    )
    charset = draw(st.sampled_from(CHARSETS))
    try:
        data = body.encode(charset.decode("ascii", "ignore").strip('"') or "utf-8")
    except (LookupError, UnicodeError, ValueError):
        data = body.encode("utf-8", "surrogatepass")
    encoding = draw(
        st.sampled_from([b"", b"7bit", b"8bit", b"quoted-printable", b"base64", b"x-junk"])
    )
    if encoding == b"base64":
        data = base64.b64encode(data)[: draw(st.integers(0, 400))]  # sometimes cut short
    elif encoding == b"quoted-printable":
        data = data.replace(b"=", b"=3D") + draw(st.sampled_from([b"", b"=", b"=ZZ", b"=82"]))
    subtype = draw(st.sampled_from([b"plain", b"html", b"rfc822", b"x-junk"]))
    part = (
        b"Content-Type: text/"
        + subtype
        + b"; charset="
        + charset
        + b"\r\n"
        + (b"Content-Transfer-Encoding: " + encoding + b"\r\n" if encoding else b"")
        + b"\r\n"
        + data
        + b"\r\n"
    )
    depth = draw(st.sampled_from([0, 0, 1, 2, 3, 150]))
    for level in range(depth):
        boundary = b"b%d" % level
        part = (
            b"Content-Type: multipart/"
            + draw(st.sampled_from([b"mixed", b"alternative"]))
            + b"; boundary="
            + boundary
            + b"\r\n\r\n--"
            + boundary
            + b"\r\n"
            + part
            + (b"--" + boundary + b"--\r\n" if draw(st.booleans()) else b"")
        )
    raw = head + b"MIME-Version: 1.0\r\n" + part
    return raw if draw(st.integers(0, 4)) else raw.replace(b"\r\n", b"\n")
