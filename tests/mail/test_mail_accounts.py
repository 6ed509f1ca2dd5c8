"""A mail player's accounts and data over real SMTP on loopback (bot/mail/account_mail.py), with
the Post of tests/mail/test_mail_tournaments.py: ``link discord`` answers with a code that links
the Discord account entering it, and then the address's games list holds the Discord account's
games; ``privacy export`` answers with the JSON attached; ``privacy delete`` only with the code
it mailed; ``unlink`` points to Discord, where an account proves itself."""

from __future__ import annotations

import json
import re

import pytest

from bot.mail.account_mail import read_request
from bot.service import Channel, Player
from tests.mail.mail_support import Mailbox
from tests.mail.test_mail_tournaments import Post

ANN, CAT = "ann@example.org", Player("discord", "303")
CODE = re.compile(r"\b([A-Z0-9]{4}-[A-Z0-9]{4})\b")


@pytest.fixture
async def post(tmp_path):
    mailbox = await Mailbox().start()
    post = Post(tmp_path, mailbox)
    await post.open()
    yield post
    await post.close()
    await mailbox.stop()


async def test_link_discord_gives_a_code_that_the_discord_account_enters(post):
    service = post.service
    game = await service.start_game(CAT, Player.ai("first"), "kalah", Channel("discord", "c"))
    answer = post.text(await post.send(ANN, "link discord"))
    code = CODE.search(answer).group(1)
    assert f"/mancala link code:{code}" in answer
    await service.confirm_link(CAT, code)
    listing = post.text(await post.send(ANN, "games"))
    assert f"[mancala game {game.id} " in listing and "your move" in listing
    assert "Discord" in post.text(await post.send(ANN, "unlink"))


async def test_an_export_comes_attached_and_a_deletion_needs_the_mailed_code(post):
    service = post.service
    await service.start_game(
        Player("email", ANN), Player.ai("first"), "kalah", Channel("email", f"{ANN}/1")
    )
    reply = await post.send(ANN, "privacy export")
    [attached] = [p for p in reply.iter_attachments()]
    assert attached.get_filename() == "mancala-data.json"
    exported = json.loads(attached.get_content())
    assert [p["external_id"] for p in exported["tables"]["players"]] == [ANN]
    refused = post.text(await post.send(ANN, "privacy delete ABCD-2345"))
    assert "not your deletion code" in refused
    asked = post.text(await post.send(ANN, "privacy delete"))
    code = CODE.search(asked).group(1)
    assert f"privacy delete {code}" in asked
    done = post.text(await post.send(ANN, f"privacy delete {code}"))
    assert "Deleted" in done and "1 games in progress were resigned" in done
    assert (await service.get_game(1)).south.surface == "deleted"


@pytest.mark.parametrize(
    ("line", "subject", "verb", "code"),
    [
        ("link discord", "", "link", None),
        ("LINK abcd-2345 please", "", "confirm", "ABCD-2345"),
        ("link", "", "help", None),
        ("privacy", "", "help", None),
        ("privacy export", "", "export", None),
        ("privacy delete wxyz2345", "", "delete", "WXYZ-2345"),
        ("", "Re: [mancala] link WXYZ-2345: link your Discord account?", "confirm", "WXYZ-2345"),
        ("unlink", "", "unlink", None),
    ],
)
def test_the_account_commands_are_read_from_the_first_line_or_the_subject(
    line, subject, verb, code
):
    request = read_request(line, subject)
    assert request is not None and (request.verb, request.code) == (verb, code)


def test_other_mail_is_no_account_command():
    assert read_request("Move 3: C", "Re: [mancala game 3 abc]") is None
    assert read_request("linked lists are fun") is None


def test_the_mail_help_names_the_account_commands_in_every_language():
    from bot.i18n import Language, speaking
    from bot.mail.mail_commands import help_text

    for language in Language:
        with speaking(language):
            text = help_text()
        lines = text.split("\n")
        accounts = next(i for i, line in enumerate(lines) if "link / privacy / stop" in line)
        assert lines[accounts + 2].startswith(" ") is False  # the closing words stay last
