"""One player on Discord and by mail, and a player's data, through ``mancala bot`` with mail:
the real discord.py client against the loopback fake of Discord, the mail surface's SMTP server,
and the player's mailbox on loopback (as in tests/discord/test_cross_surface.py).

``/mancala link email`` mails the address a code; the address's reply links them, and then the
Discord account and the address are one player. ``/mancala privacy export`` sends a JSON file;
``/mancala privacy delete`` needs the code it gave."""

from __future__ import annotations

import json
import re

import discord

from bot.service import GameService, Player
from tests.discord.discord_fake import ALICE_ID, APP_ID, BOT_ID, slash
from tests.discord.test_cross_surface import ANN, BOT_ADDRESS, running_bot, text_of
from tests.discord.test_discord_bot import LEVEL
from tests.mail.mail_support import mail, send_raw

ALICE = Player("discord", str(ALICE_ID))


def grouped(user: int, group: str, sub: str, **options) -> dict:
    """``/mancala group sub option:value``."""
    payload = slash(user, sub, **options)
    payload["data"]["options"] = [{"name": group, "type": 2, "options": payload["data"]["options"]}]
    return payload


async def test_a_link_asked_on_discord_is_confirmed_by_replying_from_the_address(
    fake_discord, database
):
    async with running_bot(fake_discord, database) as both:
        asked = await both.interact(grouped(ALICE_ID, "link", "email", address="Ann@Example.org"))
        assert asked.ephemeral and f"`{ANN}`" in asked.content
        link_mail = await both.next_mail()
        assert link_mail["To"].addresses[0].addr_spec == ANN
        code = re.search(r"link ([A-Z0-9]{4}-[A-Z0-9]{4})", link_mail["Subject"]).group(1)
        assert f"link {code}" in text_of(link_mail) and "If it was not you" in text_of(link_mail)

        # a forged From cannot use it: the code went to Ann's inbox only, and is for her
        reply = mail(
            "", subject=f"Re: {link_mail['Subject']}", sender="eve@example.org", message_id="<e1@x>"
        )
        await send_raw(both.mail_port, reply, "eve@example.org", [BOT_ADDRESS])
        refused = await both.next_mail()
        assert "is not a link code" in text_of(refused)

        # Ann's mail client replies with the subject, her text above the quote
        reply = mail(
            "Yes, that's me.\n",
            subject=f"Re: {link_mail['Subject']}",
            sender=ANN,
            message_id="<a1@x>",
        )
        await send_raw(both.mail_port, reply, ANN, [BOT_ADDRESS])
        linked = await both.next_mail()
        assert linked["To"].addresses[0].addr_spec == ANN
        assert "Linked:" in text_of(linked) and f"Discord account {ALICE_ID}" in text_of(linked)

        status = await both.interact(grouped(ALICE_ID, "link", "status"))
        assert status.ephemeral and f"<@{ALICE_ID}>" in status.content and ANN in status.content
        news = await both.interact(grouped(ALICE_ID, "link", "news", to="email"))
        assert f"goes to `{ANN}`" in news.content
    async with await GameService.open(database, tick_every=None) as service:
        assert await service.account_owner(ALICE) == Player("email", ANN)


async def test_an_export_is_a_private_json_file_and_a_deletion_needs_its_code(
    fake_discord, database
):
    async with running_bot(fake_discord, database) as both:
        await both.command(ALICE_ID, "challenge", opponent=discord.Object(BOT_ID), level=LEVEL)
        await both.interact(grouped(ALICE_ID, "privacy", "export"))  # deferred
        sent = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
        while not sent.files:  # the challenge's own follow-ups came first
            sent = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
        assert sent.ephemeral and list(sent.files) == ["mancala-data.json"]
        exported = json.loads(sent.files["mancala-data.json"])
        assert exported["format"] == "mancala-player-export/1"
        assert [p["external_id"] for p in exported["tables"]["players"]] == [str(ALICE_ID)]
        assert len(exported["tables"]["games"]) == 1

        wrong = await both.interact(grouped(ALICE_ID, "privacy", "delete", code="AAAA-2222"))
        assert wrong.ephemeral and "not your deletion code" in wrong.content
        asked = await both.interact(grouped(ALICE_ID, "privacy", "delete"))
        code = re.search(r"code:([A-Z0-9]{4}-[A-Z0-9]{4})", asked.content).group(1)
        done = await both.interact(grouped(ALICE_ID, "privacy", "delete", code=code))
        assert (
            done.ephemeral and "Deleted" in done.content and "1 games in progress" in done.content
        )
    async with await GameService.open(database, tick_every=None) as service:
        game = await service.get_game(1)
        assert game.is_over and game.south.surface == "deleted"
