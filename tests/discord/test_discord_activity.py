"""``/mancala activity`` answers the interaction with Discord's "launch the Activity"
(callback type 12), and, where the application has no Activity, says so privately."""

from __future__ import annotations

from tests.discord.discord_fake import ALICE_ID
from tests.discord.test_discord_bot import Table, bot  # noqa: F401 (the fixture)


async def test_the_command_launches_the_activity(bot, fake_discord):  # noqa: F811
    reply = await Table(bot, fake_discord).command(ALICE_ID, "activity")
    assert reply.body == {"type": 12}


async def test_without_activities_the_user_is_told_why(bot, fake_discord):  # noqa: F811
    fake_discord.activities = False
    table = Table(bot, fake_discord)
    refused = await table.command(ALICE_ID, "activity")
    assert refused.body == {"type": 12}
    reply = await fake_discord.wait_for("POST", "/interactions/")
    assert reply.ephemeral and "not turned on" in reply.content
