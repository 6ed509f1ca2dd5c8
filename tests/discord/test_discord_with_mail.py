"""`mancala bot` with MANCALA_MAIL_ADDRESS set serves Discord and email from one process on one
service, so games between Discord and email players are announced both ways."""

from __future__ import annotations

import asyncio
import contextlib
import json
from functools import partial

from bot.discord.client import serve
from bot.discord.discord_settings import Settings
from bot.health import heartbeat_path
from bot.mail.mail_settings import MailSettings
from bot.mail.runner import start_mail_surface
from tests.discord.discord_fake import GUILD_ID
from tests.mail.mail_support import Mailbox, free_port, mail, send_raw


async def test_the_discord_process_also_answers_mail(fake_discord, tmp_path):
    database = str(tmp_path / "games.sqlite3")
    mailbox = await Mailbox().start()
    mail_settings = MailSettings(
        listen=("127.0.0.1", free_port()),
        relay=("127.0.0.1", mailbox.port),
        bot_address="Mancala <mancala@bot.test>",
        secret=b"s" * 32,
        database=database,
    )
    running = asyncio.create_task(
        serve(
            "fake-token",
            Settings(guild_id=GUILD_ID, database=database),
            partial(start_mail_surface, settings=mail_settings),
        )
    )
    try:
        await asyncio.wait_for(fake_discord.identified.wait(), 10)
        await send_raw(
            mail_settings.listen[1],
            mail("Rules: wari\nLevel: first\n"),
            "ann@example.org",
            ["mancala@bot.test"],
        )
        [reply] = await mailbox.wait_for(1)
        assert reply["To"].addresses[0].addr_spec == "ann@example.org"
        assert "f  e  d  c  b  a" in reply.get_body(("plain",)).get_content()
        # the surface started beside Discord is in the process's heartbeat too
        surfaces = json.loads(heartbeat_path(database).read_text())["surfaces"]
        assert surfaces["mail"] == "listening" and "discord" in surfaces
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(running, 10)
        await mailbox.stop()
