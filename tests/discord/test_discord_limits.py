"""The payloads the bot sends, checked against Discord's documented limits.

Discord rejects a command tree or a message that breaks them, usually only once it is live:
command and option names (1-32 lowercase characters), descriptions (1-100), at most 25
options, subcommands and choices, 100 characters per choice; at most 5 rows of at most 5
buttons, a select menu alone in its row with at most 25 options, custom ids up to 100
characters; messages up to 2,000 characters.

Every check runs in every language the bot speaks (``LANGUAGES``): French and German run 20
to 30% longer than English, and a translation that breaks a limit breaks the bot there only.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import discord
import pytest
from discord import app_commands

from bot.discord import formatting as fmt
from bot.discord.boards import link_to_page
from bot.discord.choices import level_choices, ruleset_choices
from bot.discord.command_group import MancalaGroup
from bot.discord.translator import CommandTranslator, discord_language, valid_name
from bot.discord.views import PitButton, board_view, challenge_view
from bot.i18n import Language, _, speaking
from bot.service import Challenge, Channel, GameOptions, GameView, Offer, Player
from engine import Position, Ruleset
from engine.ruleset import PRESETS

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
BIG_ID = 10**15  # far more games than any server will hold: custom ids must still fit
LANGUAGES = list(Language)
in_every_language = pytest.mark.parametrize("language", LANGUAGES, ids=str)


def command_payload() -> list[dict]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.default()))
    tree.add_command(MancalaGroup())
    return [command.to_dict(tree) for command in tree.get_commands()]


def walk_options(options: list[dict]):
    for option in options:
        yield option
        yield from walk_options(option.get("options", []))


def test_there_is_one_group_named_mancala_with_every_command_of_the_issue():
    (group,) = command_payload()
    assert group["name"] == "mancala"
    names = {option["name"] for option in group["options"]}
    assert names == {
        "challenge",
        "accept",
        "decline",
        "cancel",
        "help",
        "move",
        "board",
        "resign",
        "draw",
        "undo",
        "games",
        "history",
        "pings",
        "rules",
        "leaderboard",
        "hint",
        "review",
        "puzzle",
        "settings",
        "tournament",
        "premove",
        "vacation",
        "link",
        "privacy",
        "activity",
    }


def test_names_descriptions_and_counts_fit_discords_limits():
    (group,) = command_payload()
    check_command_limits(group)


@pytest.mark.parametrize(
    "locale", [loc for loc in discord.Locale if discord_language(loc) is not None], ids=str
)
async def test_the_localized_commands_fit_discords_limits_in_every_locale(locale):
    """The tree as each Discord locale we speak shows it: its names, descriptions and
    choices in that language, within the same limits (names: letters of any script)."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.default()))
    tree.add_command(MancalaGroup())
    (group,) = tree.get_commands()
    payload = await group.get_translated_payload(tree, CommandTranslator())

    def localized(option: dict) -> dict:
        shown = {
            "name": option.get("name_localizations", {}).get(str(locale), option["name"]),
            "description": option.get("description_localizations", {}).get(
                str(locale), option.get("description", "")
            ),
            "options": [localized(child) for child in option.get("options", [])],
            "choices": [
                {
                    "name": c.get("name_localizations", {}).get(str(locale), c["name"]),
                    "value": c["value"],
                }
                for c in option.get("choices", [])
            ],
        }
        return shown

    check_command_limits(localized(payload), name_ok=valid_name)


async def test_the_longest_localizations_together_fit_discords_8000_characters():
    """Discord counts, per field, the longest of its English text and its localizations
    toward a command's 8,000 characters."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.default()))
    tree.add_command(MancalaGroup())
    (group,) = tree.get_commands()
    payload = await group.get_translated_payload(tree, CommandTranslator())

    def longest(item: dict, key: str) -> int:
        shown = [item.get(key, ""), *(item.get(f"{key}_localizations") or {}).values()]
        return max(len(text) for text in shown)

    total = 0
    for option in [payload, *walk_options(payload["options"])]:
        total += longest(option, "name") + longest(option, "description")
        total += sum(longest(c, "name") + len(str(c["value"])) for c in option.get("choices", []))
    assert total <= 8000


def check_command_limits(group: dict, name_ok=lambda name: bool(NAME.match(name))) -> None:
    """Assert one top-level command's payload keeps to Discord's limits (``name_ok``: a
    name's rule, English by default)."""
    assert name_ok(group["name"]) and 1 <= len(group["description"]) <= 100
    assert len(group["options"]) <= 25
    total = len(group["name"]) + len(group["description"])
    for option in walk_options(group["options"]):
        assert name_ok(option["name"]), option["name"]
        assert 1 <= len(option["description"]) <= 100, option["name"]
        assert len(option.get("options", [])) <= 25
        choices = option.get("choices", [])
        assert len(choices) <= 25
        for choice in choices:
            assert 1 <= len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100
        total += (
            len(option["name"])
            + len(option["description"])
            + sum(len(c["name"]) + len(str(c["value"])) for c in choices)
        )
    assert total <= 8000  # Discord's cap on all of a command's text together


def test_required_options_come_before_optional_ones():
    (group,) = command_payload()
    for sub in group["options"]:
        required = [o.get("required", False) for o in sub.get("options", [])]
        assert required == sorted(required, reverse=True), sub["name"]


def test_the_ruleset_and_move_options_use_autocomplete():
    (group,) = command_payload()
    subs = {s["name"]: {o["name"]: o for o in s.get("options", [])} for s in group["options"]}
    assert subs["challenge"]["ruleset"]["autocomplete"] is True
    assert subs["challenge"]["opponent"]["type"] == 6  # a user: a member, or the bot for the AI
    assert subs["move"]["pit"]["autocomplete"] is True
    assert subs["rules"]["ruleset"]["autocomplete"] is True


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "w",
        "k",
        "kalah:",
        "wari:captures=2-4",
        "wari:captures=2-3-" + "4" * 200,
        "x" * 100,
        "mankala:stones=9",
        "kalah:pits=8",
    ],
)
@in_every_language
def test_ruleset_autocomplete_answers_fit(typed, language):
    with speaking(language):
        choices = ruleset_choices(typed)
    assert len(choices) <= 25
    for choice in choices:
        assert 1 <= len(choice.name) <= 100 and 1 <= len(choice.value) <= 100


def test_ruleset_autocomplete_lists_every_preset_with_its_description():
    choices = {c.value: c.name for c in ruleset_choices("")}
    for name, description in Ruleset.presets().items():
        assert choices[name].startswith(f"{name}: {description[:40]}")


def test_ruleset_autocomplete_checks_options_and_says_what_is_wrong():
    (good,) = ruleset_choices("awale:captures=2-3-4")
    assert good.value == "wari:captures=2-3-4" and good.name.startswith("✓")
    (bad,) = ruleset_choices("wari:pits=99")
    assert bad.name.startswith("✗") and "pits" in bad.name and "1 to 8" in bad.name


def test_level_autocomplete_offers_the_ais_levels():
    from engine.ai import LEVELS

    assert [c.value for c in level_choices("")] == list(LEVELS)[:25]


# -- components -------------------------------------------------------------------------------


def game_view(
    position: Position, ply: int = 0, offer: Offer | None = None, game_id: int = BIG_ID
) -> GameView:
    south, north = Player("discord", str(BIG_ID)), Player("discord", str(BIG_ID + 1))
    over = position.is_over()
    return GameView(
        id=game_id,
        rules=str(position.rules),
        south=south,
        north=north,
        channel=Channel("discord", str(BIG_ID)),
        position=position,
        ply=ply,
        status="over" if over else "active",
        moves=(),
        outcome=position.outcome(),
        offer=offer,
        options=GameOptions(),
        created_at=0.0,
        last_move_at=0.0,
    )


RULESETS = [
    "kalah",
    "wari",
    "oware",
    "al-manqala",
    "mankala",
    "manbula",
    "kalah:pits=8",
    "kalah:pits=1,seeds=1",
    "manbula:direction=choice",
    "kalah:pits=8,choose=any,end=all_empty,direction=choice",
    "kalah:pits=7,choose=any,end=all_empty",
    "togyz-kumalak",  # 9 pits: two rows of 5 and 4 buttons
    "bestemshe",
    "togyz-kumalak:direction=choice",  # 18 moves: one menu
    "bestemshe:pits=9,choose=any",  # 18 pits: four rows of buttons, offers on the fifth
    "bestemshe:pits=9,choose=any,direction=choice",  # 36 moves: two menus
]


def positions_along_random_games(rules: str, games: int = 3, seed: int = 1):
    rng = random.Random(seed)
    for _game in range(games):
        position = Position.initial(Ruleset.parse(rules))
        ply = 0
        while True:
            yield position, ply
            moves = position.legal_moves()
            if not moves or ply > 80:
                break
            position = position.play(rng.choice(moves))
            ply += 1


def check_components(rows: list[dict]) -> None:
    assert len(rows) <= 5
    for row in rows:
        items = row["components"]
        assert 1 <= len(items) <= 5
        if any(item["type"] == 3 for item in items):
            assert len(items) == 1  # a select menu takes its whole row
        for item in items:
            assert len(item["custom_id"]) <= 100
            if item["type"] == 2:
                assert 1 <= len(item["label"]) <= 80
            else:
                assert 1 <= len(item["options"]) <= 25
                assert len(item.get("placeholder") or "") <= 150
                for option in item["options"]:
                    assert 1 <= len(option["label"]) <= 100
                    assert len(option.get("description") or "") <= 100


@pytest.mark.parametrize("rules", RULESETS)
@in_every_language
async def test_board_components_fit_and_enable_exactly_the_legal_moves(rules, language):
    kinds = ["draw", "undo", "end"]
    for position, ply in positions_along_random_games(rules):
        kind = kinds[ply % 3]
        offer = Offer(kind, Player("discord", str(BIG_ID)), ply) if ply % 7 == 3 else None
        with speaking(language):
            view = board_view(game_view(position, ply, offer))
            rematch = _("Rematch")
        if position.is_over():  # a final board offers a rematch, and nothing else
            rows = view.to_components()
            check_components(rows)
            assert [i["label"] for row in rows for i in row["components"]] == [rematch]
            continue
        rows = view.to_components()
        check_components(rows)
        items = [item for row in rows for item in row["components"]]
        enabled = [
            i["label"]
            for i in items
            if i["type"] == 2
            and i["custom_id"].startswith("mancala:move:")
            and not i.get("disabled")
        ]
        offered = [o["value"] for i in items if i["type"] == 3 for o in i["options"]]
        assert sorted(enabled + offered) == sorted(position.legal_moves())
        for item in items:
            if item["custom_id"].startswith("mancala:move:"):
                assert item["custom_id"].startswith(f"mancala:move:{BIG_ID}:{ply}:")
        assert any(i["custom_id"].endswith(":accept") for i in items) == (offer is not None)


def test_buttons_follow_the_board_north_reads_right_to_left():
    position = Position.initial(Ruleset.parse("kalah")).play("A")  # North to move
    rows = board_view(game_view(position, 1)).to_components()
    labels = [[b["label"] for b in row["components"]] for row in rows]
    assert labels == [["f", "e", "d"], ["c", "b", "a"]]


def test_nine_pits_make_two_rows_of_buttons_the_ninth_pressable():
    position = Position.initial(Ruleset.parse("togyz-kumalak"))
    rows = board_view(game_view(position, 0)).to_components()
    labels = [[b["label"] for b in row["components"]] for row in rows]
    assert labels == [list("ABCDE"), list("FGHI")]
    custom_id = rows[1]["components"][-1]["custom_id"]
    assert PitButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    north = position.play("I")
    labels = [
        [b["label"] for b in row["components"]]
        for row in board_view(game_view(north, 1)).to_components()
    ]
    assert labels == [list("ihgfe"), list("dcba")]


@in_every_language
def test_challenge_buttons_fit(language):
    challenge = Challenge(
        id=BIG_ID,
        challenger=Player("discord", "1"),
        opponent=Player("discord", "2"),
        rules="wari",
        channel=Channel("discord", "3"),
        options=GameOptions(),
        status="open",
        created_at=0.0,
        expires_at=None,
    )
    with speaking(language):
        rows = challenge_view(challenge).to_components()
    check_components(rows)
    assert [b["custom_id"] for b in rows[0]["components"]] == [
        f"mancala:challenge:{BIG_ID}:accept",
        f"mancala:challenge:{BIG_ID}:decline",
    ]


@pytest.mark.parametrize(
    "rules", ["kalah:pits=8,seeds=12", "al-manqala", "togyz-kumalak", "bestemshe"]
)
@in_every_language
def test_board_messages_fit_in_one_message(rules, language):
    for position, ply in positions_along_random_games(rules, games=1):
        offer = Offer("end", Player("discord", str(BIG_ID)), ply) if ply % 5 == 1 else None
        game = game_view(position, ply, offer)
        game = replace(game, options=GameOptions(days=14), deadline=2.0e9)
        with speaking(language):
            text = fmt.board_message(game, fmt.offer_answered("undo", fmt.who(game.north), True))
        assert len(text) <= fmt.MESSAGE_LIMIT and not text.endswith("…")  # whole, never cut
        assert "```" in text


@pytest.mark.parametrize(
    "rules", [*RULESETS, "manbula:asymmetric,capture=home,stones=6,direction=choice"]
)
@in_every_language
def test_a_boards_link_to_its_page_fits_the_embed(rules, language):
    """With MANCALA_WEB_URL the board's embed has a title linking to the page: the title
    fits Discord's 256 characters, and the buttons stay as they were (no link button)."""
    game = game_view(Position.initial(Ruleset.parse(rules)))
    embed = discord.Embed()
    with speaking(language):
        link_to_page(embed, game, "https://mancala.example")
    assert embed.title and len(embed.title) <= 256 and str(BIG_ID) in embed.title
    assert embed.url == f"https://mancala.example/game/{BIG_ID}"
    assert len(embed) <= 6000


@pytest.mark.parametrize(
    "spec",
    [
        *sorted(PRESETS),
        "wari:captures=1-2-3-4-5-6-7-8-9",
        "kalah:pits=8,seeds=12,first=random,empty_means=before_move",
        "manbula:asymmetric,capture=home,stones=6,direction=choice",
    ],
)
@in_every_language
def test_a_rules_card_fits_an_embed_for_every_preset_and_long_specs(spec, language):
    with speaking(language):
        card = fmt.rules_card(Ruleset.parse(spec))
    assert len(card.title) <= fmt.EMBED_TITLE and len(card.description) <= fmt.EMBED_DESCRIPTION
    assert len(card.fields) <= fmt.EMBED_FIELDS
    assert all(len(n) <= fmt.FIELD_NAME and len(v) <= fmt.FIELD_VALUE for n, v in card.fields)
    assert not any(v.endswith("…") for _name, v in card.fields)  # whole, never cut
    assert card.size() <= fmt.EMBED_TOTAL


# -- every other text, at its longest, in every language ------------------------------------

FAR = Player("discord", "9" * 20)  # the longest mention: <@99999999999999999999>


def whole(text: str) -> str:
    """A message that fits without being cut (``fmt.fit`` marks a cut with …)."""
    assert len(text) <= fmt.MESSAGE_LIMIT and not text.endswith("…"), text[-80:]
    return text


@in_every_language
@pytest.mark.parametrize("typed_moves", [True, False])
def test_the_help_fits_whole(language, typed_moves):
    with speaking(language):
        whole(fmt.help_text(typed_moves))


@in_every_language
def test_challenges_lists_and_leaderboards_fit(language):
    from bot.service import Rating

    statuses = ["open", "accepted", "declined", "cancelled", "expired"]
    opponents = [FAR, Player("email", "a" * 60 + "@" + "b" * 60 + ".org"), Player.ai("expert")]
    with speaking(language):
        for status in statuses:
            for opponent in opponents:
                for side in ("south", "north", "random"):
                    challenge = Challenge(
                        id=BIG_ID,
                        challenger=FAR,
                        opponent=opponent,
                        rules="kalah:pits=8,seeds=12,first=random,empty_means=before_move",
                        channel=Channel("discord", str(BIG_ID)),
                        options=GameOptions(side=side),
                        status=status,
                        created_at=0.0,
                        expires_at=None,
                    )
                    whole(fmt.challenge_message(challenge, Ruleset.presets()))
        games = [game_view(Position.initial(Ruleset.parse("togyz-kumalak")))] * 10
        whole(fmt.games_list([replace(g, south=FAR) for g in games], FAR))
        whole(fmt.games_list([], FAR))
        rating = Rating(FAR, "kalah", 3000.0, 10**6, 10**6, 10**6, 10**6)
        whole(fmt.leaderboard_text("al-manqala", [rating] * 10, _("this server")))
        with pytest.raises(ValueError) as refused:
            fmt.parse_duration("x" * 300)
        whole(str(refused.value))


@in_every_language
def test_tournament_and_correspondence_texts_fit(language):
    from bot.discord.correspondence_commands import premove_lines, vacation_words
    from bot.discord.tournament_commands import describe, pairing_line, standings_lines
    from bot.service.premoves import Premove
    from bot.service.tournaments import (
        Format,
        Pairing,
        PairingKind,
        PairingResult,
        Standing,
        TimeControl,
        TournamentStatus,
        TournamentView,
    )
    from bot.service.vacations import VacationStatus

    with speaking(language):
        for form in Format:
            for status in TournamentStatus:
                view = TournamentView(
                    id=BIG_ID,
                    name="x" * 64,
                    format=form,
                    rules="kalah:pits=8,seeds=12",
                    status=status,
                    rounds=20,
                    current_round=20,
                    time_control=TimeControl.correspondence(14),
                    creator=FAR,
                    place=None,
                    server=None,
                    players=tuple([FAR] * 64),
                    withdrawn=(),
                    created_at=0.0,
                    starts_at=2.0e9,
                    arena_minutes=1440,
                )
                whole(describe(view))
        lines = [
            pairing_line(
                Pairing(20, 64, FAR, FAR, PairingKind.GAME, BIG_ID, PairingResult.DRAW),
                f" <#{BIG_ID}>",
            ),
            pairing_line(Pairing(20, 64, FAR, None, PairingKind.BYE)),
            pairing_line(Pairing(20, 64, FAR, FAR, PairingKind.FORFEIT, None, PairingResult.NORTH)),
        ]
        standing = Standing(64, FAR, 19.5, 200.5, 150.25, 3000.0, 60, 20, 20, 20, True)
        lines += standings_lines([standing], arena=False)
        assert all(len(line) <= 200 for line in lines)  # 10 of them fit one message
        month = 30 * 86400.0
        whole(vacation_words(VacationStatus(FAR, 2.0e9, 1.9e9, month, month, 2026)))
        whole(premove_lines([Premove(("c", "f", "a"), "C", 400)] * 20))
