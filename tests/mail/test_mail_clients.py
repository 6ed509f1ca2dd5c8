"""A second corpus of real-shaped mails (tests/mail/data/mail_clients/, beside
tests/mail/data/mail_corpus/ and tests/mail/test_mail_corpus.py): each raw .eml, as Outlook (HTML
and plain), Gmail, Apple Mail, Thunderbird or a phone sends it, in the languages players
write, with a .json beside it saying what it must be read as. Each goes through the real
reader and the real bot: the service on an SQLite file, replies to a loopback mailbox.

A .json holds: ``client``, ``language``, ``cases`` (what it exercises); ``game`` (moves
played in game 1, Ann South against Bob North, before the mail arrives); and what must come
of it: ``position`` (a position-and-move mail: the sender's ``moves`` and the board's
``pits`` in engine order), ``command`` (a correspondence command: ``verb``, ``move``,
``number``), ``refused`` (words of the refusal), ``ply_after`` (game 1's ply once answered:
a refused mail changes nothing), ``reply_has`` / ``reply_lacks`` and ``text_lacks``. The
placeholder @@TOKEN@@ stands for game 1's South token, which depends on the secret.

A mail from a client in a language the bot speaks is answered in it (its Content-Language,
else the language its client quoted the bot in); ``reply_has``'s English sentences are then
checked only where the reply is English, and its notation (boards, tags, moves) everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.i18n import Language
from bot.mail.mail_commands import parse_command
from bot.mail.position_mail import MailFormatError, parse_position_mail
from bot.mail.reading import read_mail
from bot.service import Player
from tests.mail.mail_support import mail

CORPUS = Path(__file__).parent / "data" / "mail_clients"
NAMES = sorted(path.stem for path in CORPUS.glob("*.eml"))
ANN, BOB = Player("email", "ann@example.org"), Player("email", "bob@example.org")


def _is_prose(words: str) -> bool:
    """English words of the bot's (not notation such as a tag, a board or a Move: line)."""
    return not words.startswith(("[", ">", "Rules:", "Move ")) and " " in words


def expected(name: str) -> dict:
    return json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture
def table_options():
    """The corpus's own secret, and the AI level that plays the first legal move."""
    return {"secret": b"corpus-secret", "level": "first"}


async def start_game(surface, service, moves: list[str]) -> None:
    """Game 1: Ann (South) challenges Bob by mail, he accepts, then ``moves`` are played."""
    await surface.bot.process(
        mail("challenge bob@example.org wari as south"), "ann@example.org", ["mancala@bot.test"]
    )
    challenge = (await service.open_challenges(ANN))[0]
    await service.accept(challenge.id, BOB)
    for ply, move in enumerate(moves):
        await service.move(1, ANN if ply % 2 == 0 else BOB, move, expected_ply=ply)
    await service.idle()


def test_the_corpus_covers_the_clients_languages_and_cases():
    seen = [expected(name) for name in NAMES]
    assert all((CORPUS / f"{name}.json").exists() for name in NAMES)
    clients = " ".join(e["client"] for e in seen)
    for client in (
        "Outlook 365 (HTML",
        "plain text",
        "Gmail",
        "Apple Mail",
        "Thunderbird",
        "phone",
        "Outlook for Android",
    ):
        assert client in clients, client
    languages = {e["language"] for e in seen}
    assert {
        "en",
        "nb",
        "sv",
        "da",
        "pt",
        "pl",
        "ru",
        "ja",
        "zh",
        "fr",
        "de",
        "es",
        "it",
        "nl",
    } <= languages
    cases = " ".join(c for e in seen for c in e["cases"])
    for case in (
        "html table board",
        "en dash",
        "em dash",
        "minus sign",
        "full-width",
        "trailing words",
        "move without a tag",
        "forwarded",
        "new board wins",
        "phone footer",
        "Outlook block",
        "gmail divs",
        "pre board",
        "br and nbsp",
    ):
        assert case in cases, case


@pytest.mark.parametrize("name", NAMES)
async def test_a_corpus_mail_is_read_as_expected(name, table):
    surface, service, mailbox = table
    expect = expected(name)
    if "game" in expect:
        await start_game(surface, service, expect["game"]["moves"])
    token = surface.bot.correspondence.tokens.token("game", 1, "south")
    raw = (CORPUS / f"{name}.eml").read_bytes().replace(b"@@TOKEN@@", token.encode())
    incoming = read_mail(raw)
    assert incoming.automatic is None and incoming.refusal is None
    for words in expect.get("text_lacks", []):
        assert words not in incoming.text

    if "position" in expect:  # read as the position-and-move mail it is
        request = parse_position_mail(incoming.text, surface.bot.levels)
        assert request.moves == expect["position"]["moves"]
        assert list(request.position.pits) == expect["position"]["pits"]
    if "command" in expect:
        command = parse_command(incoming.text)
        assert (command.verb, command.move, command.number) == (
            expect["command"]["verb"],
            expect["command"]["move"],
            expect["command"]["number"],
        )

    replies = await surface.bot.answer(raw, incoming.from_address, incoming.recipients)
    await service.idle()
    assert replies, "every mail here gets an answer"
    reply = replies[0]
    assert reply["To"] == incoming.from_address and reply["In-Reply-To"] == incoming.message_id
    body = reply.get_body(("plain",)).get_content()
    if "refused" in expect:
        assert expect["refused"] in body
    else:
        assert "could not read" not in body and "did not act" not in body
    language = Language.from_tag(expect.get("language"))
    assert reply["Content-Language"] == (language or Language.EN).value  # the client's
    for words in expect.get("reply_has", []):
        if language in (None, Language.EN) or not _is_prose(words):
            assert words in body, words
    for words in expect.get("reply_lacks", []):
        assert words not in body, words
    if "ply_after" in expect:
        assert (await service.get_game(1)).ply == expect["ply_after"]


@pytest.mark.parametrize("name", [n for n in NAMES if "position" in expected(n)])
def test_position_mails_in_the_corpus_are_not_misread_when_their_board_breaks(name):
    """The corpus boards are read, not guessed: one count more in the new board's first
    count row is refused, quoting that row."""
    raw = (CORPUS / f"{name}.eml").read_bytes()
    text = read_mail(raw).text
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.split()[:1] == ["4"])
    lines[row] += " 4"
    with pytest.raises(MailFormatError) as refused:
        parse_position_mail("\n".join(lines), ("first",))
    # the line is quoted as a short, clean excerpt: its runs of spaces folded
    assert "7 pits" in refused.value.problem
    assert refused.value.line.split() == lines[row].split()
