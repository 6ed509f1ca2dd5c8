"""Mail in the players' languages, over real SMTP on loopback (the replies and notices reach
an aiosmtpd mailbox): a French player plays a whole game by mail against a German one without
one English sentence in either inbox; ``language pt`` holds for later mails; a mail's
Content-Language, or the attribution line its client quoted the bot under ("El 3 mar 2026,
Ana escribió:"), chooses the language of a player who set none; and a quoted French reply
still reads back, its board and move being notation.

"No English sentence" is checked against the catalogs themselves: no run of more than three
words of an English message of the mail, service, engine or terminal domains appears in a
mail where that message's translation differs (``english_in``).
"""

from __future__ import annotations

import html
import re
import string
from email.message import EmailMessage
from functools import cache

import pytest

from bot.i18n import Language, speaking
from bot.i18n.catalogs import translations
from bot.i18n.update import template
from bot.mail.mail_settings import MailSettings
from bot.mail.reply_limits import ReplyKind, ReplyLimiter, ReplyLimits
from bot.service import ManualClock, Player
from engine import Side, to_perspective
from tests.mail.mail_support import Mailbox, mail

BOT = "mancala@bot.test"
DUMP = False  # print the game's mails, to read them
DOMAINS = ("mail", "service", "engine", "terminal")
LANGUAGES = [Language.FR, Language.PT, Language.ES, Language.DE]
OPENING = """Rules: wari
Move: E

    f  e  d  c  b  a
    4  4  4  4  4  4
    4  4  4  4  4  4
    A  B  C  D  E  F
Captured: North 0, South 0.
"""


# -- the check: no English sentence -------------------------------------------------------


def _runs(text: str) -> list[str]:
    """The literal runs of a message between its {fields}, of more than three words."""
    runs = [literal for literal, _, _, _ in string.Formatter().parse(text)]
    return [run.strip() for run in runs if len(run.split()) > 3]


@cache
def _english_runs(language: Language) -> tuple[str, ...]:
    """The runs of English messages whose translation into ``language`` does not keep them
    (a run that the translation keeps is notation, like 'Move: C d E')."""
    catalog = translations(language)
    found: set[str] = set()
    for domain in DOMAINS:
        for message in template(domain):
            if not message.id:
                continue
            if isinstance(message.id, str):
                ids = [message.id]
                if message.context:
                    translated = [catalog.pgettext(message.context, message.id)]
                else:
                    translated = [catalog.gettext(message.id)]
            else:
                ids = list(message.id)
                translated = [catalog.ngettext(*message.id[:2], n) for n in (1, 2, 5)]
            for text in ids:
                for run in _runs(text):
                    if not any(run in words for words in translated):
                        found.add(run)
    return tuple(sorted(found, key=len, reverse=True))


# The lines under a written board, which stay English in every language: they are read back
# (engine.notation: "Game over (South resigned at move 5).", "North wins.", "South to move.").
_BOARD_LINE = re.compile(
    r"^\s*(Game over \(.*\)\.|.*\b(wins|a draw)\.|A draw\.|Last move .*|Captured: .*"
    r"|(South|North) to move.*|Tuzdyks?: .*)\s*$",
    re.M,
)


def texts_of(message: EmailMessage) -> list[str]:
    """The subject and every text part of a mail (HTML as its text, tags dropped)."""
    texts = [str(message["Subject"] or "")]
    for part in message.walk():
        if part.get_content_maintype() == "text":
            content = part.get_content()
            if part.get_content_subtype() == "html":
                content = re.sub(r"<[^>]*>", " ", content)
                content = re.sub(r"\s+", " ", html.unescape(content))
            texts.append(content)
    return texts


def words_of(message: EmailMessage) -> str:
    """A mail's words, without its boards' notation: its subject and text parts (HTML
    without its <pre> boards and tags)."""
    texts = [str(message["Subject"] or "")]
    for part in message.walk():
        if part.get_content_maintype() == "text":
            content = part.get_content()
            if part.get_content_subtype() == "html":
                content = re.sub(r"(?s)<pre\b.*?</pre>", " ", content)
                content = html.unescape(re.sub(r"<[^>]*>", " ", content))
            texts.append(_BOARD_LINE.sub("", content))
    return "\n".join(texts)


def english_in(message: EmailMessage, language: Language) -> list[str]:
    """The English runs found in ``message``, which should be in ``language``."""
    text = words_of(message)
    flat = re.sub(r"\s+", " ", text)
    return [run for run in _english_runs(language) if run in text or run in flat]


def assert_in_language(messages: list[EmailMessage], language: Language) -> None:
    assert messages
    for message in messages:
        assert message["Content-Language"] == language.value, message["Subject"]
        found = english_in(message, language)
        assert not found, (
            f"English in a {language} mail {message['Subject']!r}: {found[:3]}\n"
            + "\n".join(texts_of(message)[1:2])
        )


def test_the_check_finds_english():
    with speaking(Language.EN):
        message = EmailMessage()
        message["Subject"] = "x"
        message.set_content("Hello.\nThe game is over. Reply 'review' for the solver's review.")
    assert english_in(message, Language.FR)
    with speaking(Language.FR):
        from bot.mail.mail_commands import help_text

        message = EmailMessage()
        message["Subject"] = "x"
        message.set_content(help_text())
    assert not english_in(message, Language.FR)  # its commands are notation, kept as they are


# -- players with mail clients ------------------------------------------------------------


class Writer:
    """A person with a mail client, which may say its language (Content-Language) or quote
    the bot's mail under its own attribution line."""

    def __init__(self, table, address: str, header_language: str | None = None):
        self.surface, self.service, self.mailbox = table
        self.address = address
        self.header_language = header_language
        self.player = Player("email", address)
        self.sent = 0

    def inbox(self) -> list[EmailMessage]:
        return [m for m in self.mailbox.messages if m["To"] == self.address]

    def last(self) -> EmailMessage:
        return self.inbox()[-1]

    def text(self) -> str:
        return self.last().get_body(("plain",)).get_content().replace("\r\n", "\n")

    async def send(
        self,
        body: str,
        reply: bool = True,
        quote: str | None = None,
        header_language: str | None = None,
    ) -> EmailMessage:
        """Send ``body`` (as a reply to the bot's latest mail, unless ``reply`` is False;
        with that mail quoted under ``quote``, an attribution line, when given); return the
        answer that arrives in this writer's inbox."""
        self.sent += 1
        to, subject, extra = BOT, "mancala", ""
        if reply:
            last = self.last()
            subject, to = "Re: " + str(last["Subject"]), last["Reply-To"] or BOT
            extra = f"In-Reply-To: {last['Message-ID']}\r\nReferences: {last['Message-ID']}\r\n"
        language = header_language or self.header_language
        if language:
            extra += f"Content-Language: {language}\r\n"
        if quote:
            quoted = "\n".join("> " + line for line in self.text().split("\n"))
            body = f"{body}\n\n{quote}\n{quoted}"
        raw = mail(
            body,
            subject=subject,
            sender=self.address,
            to=to,
            message_id=f"<{self.sent}.{self.address}>",
            extra=extra,
        )
        before = len(self.inbox())
        await self.surface.bot.process(raw, self.address, [to])
        await self.service.idle()
        await self.mailbox.wait_for(len(self.mailbox.messages))
        assert len(self.inbox()) > before, "no answer"
        return self.last()

    async def legal_move(self, game_id: int) -> str:
        """A legal move of this player's in the game, as they write it (their own side)."""
        game = await self.service.get_game(game_id)
        side = game.side_of(self.player)
        return to_perspective(game.position.legal_moves()[0], side)


# -- a whole game, French against German --------------------------------------------------


async def test_a_french_player_plays_a_whole_game_by_mail_against_a_german_one(table):
    from tests.service.test_ai_fairness import NeverCompiled

    surface, service, mailbox = table
    service.ai.kernel = NeverCompiled()  # a small board: the plain solver reviews it
    ann = Writer(table, "ann@example.org")
    bob = Writer(table, "bob@example.org")
    # each sets a language once: mail sent to them unasked (an opponent's move) needs it
    await ann.send("language français", reply=False)
    assert "Votre langue : Français." in ann.text()
    await bob.send("Sprache: de", reply=False)
    assert "Deine Sprache: Deutsch." in bob.text()

    await ann.send("challenge bob@example.org kalah:seeds=2", reply=False)
    assert "Défi envoyé à Bob." in ann.text()
    assert "Ann fordert dich zu einer Partie kalah:seeds=2 heraus." in bob.text()
    await bob.send("accept")
    assert "Die Partie beginnt" in bob.text() and "a accepté votre défi" in ann.text()

    for _ in range(2):  # two moves each
        await ann.send(await ann.legal_move(1))
        assert "Vous avez joué" in ann.text() and "hat" in bob.text()
        await bob.send(await bob.legal_move(1))
        assert "Du hast" in bob.text()
    await ann.send("draw")
    assert "Vous avez proposé : la nulle." in ann.text()
    assert "Ann bietet ein Remis an." in bob.text()
    await bob.send("decline")
    assert "Bob a refusé votre proposition de nulle." in ann.text()
    await ann.send("resign")
    assert "Vous avez abandonné." in ann.text() and "Partie beendet" in bob.text()
    game = await service.get_game(1)
    assert game.is_over and game.outcome.winner == "north"
    await ann.send("review")
    assert "Le plateau final :" in ann.text()

    assert_in_language(ann.inbox(), Language.FR)
    assert_in_language(bob.inbox(), Language.DE)
    if DUMP:
        for message in ann.inbox() + bob.inbox():
            print("=" * 70, message["Subject"], *texts_of(message)[1:], sep="\n")
    # the notation is the same in both: tags, boards, the pits' letters
    for message in ann.inbox()[1:] + bob.inbox()[1:]:  # after the language's answer
        assert re.search(r"\[mancala (game|challenge) 1 [a-z2-7]{10}\]", message["Subject"])
    board = (await service.get_game(1)).board(Side.SOUTH)
    assert board in ann.text() and "South" in board  # notation


async def test_the_german_opponent_hears_of_every_event_in_german(table):
    """The service's notices (a challenge, moves, an offer, the end) to a player who set
    German, made by a French player's mails."""
    surface, service, mailbox = table
    ann = Writer(table, "ann@example.org")
    bob = Writer(table, "bob@example.org")
    await ann.send("language fr", reply=False)
    await bob.send("language de", reply=False)
    await ann.send("challenge bob@example.org wari", reply=False)
    await bob.send("accept")
    await ann.send(await ann.legal_move(1))
    await ann.send("undo")
    await bob.send("accept")
    assert "Bob a accepté" in ann.text() or "Rücknahme" in bob.text()
    await bob.send("resign")
    assert_in_language(ann.inbox(), Language.FR)
    assert_in_language(bob.inbox(), Language.DE)


# -- how the language is chosen -----------------------------------------------------------


async def test_language_pt_holds_for_later_mails_until_auto(table):
    surface, service, mailbox = table
    ana = Writer(table, "ana@example.org")
    reply = await ana.send("language pt", reply=False)
    assert reply["Content-Language"] == "pt" and "O seu idioma: Português." in ana.text()
    reply = await ana.send("games", reply=False)
    assert reply["Content-Language"] == "pt" and "Você não tem partidas" in ana.text()
    # her setting wins over what her mail says
    reply = await ana.send("help", reply=False, header_language="de")
    assert reply["Content-Language"] == "pt" and "Jogar por e-mail" in ana.text()
    await ana.send("language", reply=False)
    assert "O seu idioma: Português." in ana.text() and "kk (Қазақша)" in ana.text()
    # a position mail too, and its board reads back as it was sent
    reply = await ana.send(OPENING, reply=False)
    assert reply["Content-Language"] == "pt" and "Você jogou E." in ana.text()
    assert "Rules: wari\nSide: south\nLevel:" in ana.text() and "Move: " in ana.text()
    reply = await ana.send("language auto", reply=False, header_language="es")
    assert reply["Content-Language"] == "es" and "No has elegido idioma" in ana.text()
    # with no setting and no hint, the language her mail last showed (Spanish) holds
    reply = await ana.send("games", reply=False)
    assert reply["Content-Language"] == "es" and "No tienes partidas" in ana.text()
    assert_in_language(ana.inbox()[:5], Language.PT)


async def test_an_unknown_language_is_refused_in_the_writers_language(table):
    surface, service, mailbox = table
    ana = Writer(table, "ana@example.org", header_language="es")
    reply = await ana.send("language klingon", reply=False)
    assert reply["Content-Language"] == "es" and "klingon" in ana.text()
    assert await service.languages.setting(ana.player) is None


async def test_a_mail_with_only_content_language_es_is_answered_in_spanish(table):
    surface, service, mailbox = table
    ana = Writer(table, "ana@example.org", header_language="es-ES")
    reply = await ana.send("help", reply=False)
    assert reply["Content-Language"] == "es" and "Jugar por correo" in ana.text()
    reply = await ana.send("Rules: wari\nMove: C", reply=False)
    assert "No pude leer tu correo" in ana.text() and "Rules: wari" in ana.text()
    assert_in_language(ana.inbox(), Language.ES)


async def test_a_reply_quoting_a_spanish_attribution_line_is_answered_in_spanish(table):
    surface, service, mailbox = table
    ana = Writer(table, "ana@example.org")
    await ana.send("help", reply=False)
    assert ana.last()["Content-Language"] == "en"
    reply = await ana.send("games", quote="El 3 mar 2026, Mancala <mancala@bot.test> escribió:")
    assert reply["Content-Language"] == "es" and "No tienes partidas" in ana.text()


async def test_a_quoted_french_reply_reads_back_its_board_and_move(table):
    """The position mail's reply, in French, written back with the move filled in and the
    whole French mail quoted under a French attribution line: the notation reads the same."""
    surface, service, mailbox = table
    ann = Writer(table, "ann@example.org", header_language="fr")
    await ann.send(OPENING, reply=False)
    text = ann.text()
    assert "Vous avez joué E." in text and "À vous de jouer" in text
    legal = re.search(r"l'un de ([A-F](?:, [A-F])*)", text).group(1).split(", ")
    board = text[text.index("Rules:") :].replace("Move: ", f"Move: {legal[0]}")
    ann.header_language = None  # only the quote says French now
    await ann.send(board, quote="Le 3 mars 2026 à 10:00, Mancala <mancala@bot.test> a écrit :")
    again = ann.text()
    assert ann.last()["Content-Language"] == "fr"
    assert f"Vous avez joué {legal[0]}." in again and "Je n'ai pas pu lire" not in again
    # and a correspondence game's French mail, quoted, still takes a bare move
    bob = Writer(table, "bob@example.org")
    await ann.send("challenge bob@example.org wari", reply=False)
    await bob.send("accept")
    move = await ann.legal_move(1)
    await ann.send(move, quote="Le mar. 3 mars 2026, Mancala <mancala@bot.test> a écrit :")
    assert f"Vous avez joué {move} (coup 1)." in ann.text()
    assert (await service.get_game(1)).ply == 1


# -- the same, lighter, in each language ---------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES, ids=str)
async def test_a_game_against_the_ai_in_each_language(table, language):
    surface, service, mailbox = table
    ann = Writer(table, "ann@example.org")
    await ann.send(f"language {language.value}", reply=False)
    await ann.send("help", reply=False)
    await ann.send("challenge ai wari", reply=False)
    for _ in range(2):
        await ann.send(await ann.legal_move(1))
    await ann.send("draw")
    await ann.send("Move 99: Q")  # no such pit: refused in words
    await ann.send("board")
    await ann.send("resign")
    await ann.send("games", reply=False)
    await ann.send("vacation status")
    await ann.send("puzzle", reply=False)
    await ann.send("tournament", reply=False)
    await ann.send(OPENING, reply=False)
    await ann.send("Rules: wari\nMove: Z\n4 4 4 4 4 4\n4 4 4 4 4 4", reply=False)
    await ann.send("challenge", reply=False)
    assert_in_language(ann.inbox(), language)
    assert (await service.get_game(1)).is_over
    if DUMP:
        for message in ann.inbox():
            print("=" * 70, message["Subject"], texts_of(message)[1], sep="\n")


@pytest.mark.parametrize("language", list(Language), ids=str)
def test_the_limits_words_stay_within_the_limits_in_every_language(language):
    """The day's one notice stays short (tests/mail/test_mail_abuse.py: under 400 characters), a
    refused challenge fits a Discord message (2000), and a bad setting is one line."""
    from bot.mail.correspondence import _stranger_refusal
    from bot.mail.mail_settings import MailSettings, MailSettingsError
    from bot.mail.reply_limits import Refusal

    limiter = ReplyLimiter(ReplyLimits(replies_per_address=10), ManualClock(3600.0))
    with speaking(language):
        for kind in (ReplyKind.AUTOMATIC, ReplyKind.PLAY):
            assert len(limiter._notice(kind, 100)) < 400
        for refusal in Refusal:
            assert len(_stranger_refusal(limiter, refusal, "x" * 64 + "@example.org")) <= 2000
        for name, value in (
            ("MANCALA_MAIL_RELAY_TLS", "x"),
            ("MANCALA_MAIL_MAX_BYTES", "x"),
            ("MANCALA_MAIL_LISTEN", "x"),
            ("MANCALA_MAIL_TRUSTED_AUTHSERV", "a b"),
            ("MANCALA_MAIL_REPLIES_PER_DAY", "x"),
        ):
            with pytest.raises(MailSettingsError) as err:
                MailSettings.from_environ({name: value})
            message = str(err.value)
            assert message.startswith(name) and "\n" not in message and len(message) < 250


@pytest.mark.parametrize("language", LANGUAGES, ids=str)
async def test_the_limit_notice_is_in_the_writers_language(tmp_path, language):
    """Past an address's limit, its one notice comes in its language too."""
    from bot.ai_runtime.pool import AIPool
    from bot.mail.bot import MailBot

    limiter = ReplyLimiter(ReplyLimits(replies_per_address=1), ManualClock(3600.0))
    bot = MailBot(MailSettings(bot_address=BOT), AIPool(0), limiter=limiter)
    header = f"Content-Language: {language.value}\r\n"
    first = await bot.answer(mail("hello", extra=header, message_id="<1@x>"), "ann@example.org")
    [notice] = await bot.answer(mail("hi", extra=header, message_id="<2@x>"), "ann@example.org")
    assert first[0]["Content-Language"] == notice["Content-Language"] == language.value
    assert_in_language([*first, notice], language)
    assert len(notice.get_body(("plain",)).get_content()) < 400


# -- mail nobody asked for: digests, reminders, forfeits, tournaments ------------------------


async def test_digests_reminders_and_tournament_news_go_in_each_recipients_language(tmp_path):
    """A Spanish player and a Russian one: the bot's own mails (a digest, a reminder, a
    forfeit, a tournament's rounds and end) each in its recipient's language, whoever or
    whatever made them happen."""
    from tests.mail.test_mail_schedule import DIGEST_TAG, MONDAY, digests, tick
    from tests.mail.test_mail_tournaments import Post

    mailbox = await Mailbox().start()
    post = Post(tmp_path, mailbox)
    post.clock.set(MONDAY - 2 * 3600.0)
    await post.open()
    ana, ivan = "ana@example.org", "ivan@example.org"
    try:
        await post.send(ana, "language es")
        await post.send(ivan, "язык ru")
        made = await post.send(ivan, f"challenge {ana} wari as north 3 days")
        assert "Вызов отправлен" in post.text(made)
        card = post.inbox(ana)[-1]
        assert "Ivan te desafía a una partida de wari." in post.text(card)
        await post.send(ana, "accept", answering=card)
        on = await post.send(ana, "digest on", answering=post.game_mail(ana, 1))
        assert on["Content-Language"] == "es"
        post.clock.set(MONDAY + 5 * 60)
        await tick(post)
        (digest,) = digests(post, ana)
        assert DIGEST_TAG.match(digest["Subject"]) and "espera tu jugada" in digest["Subject"]
        answer = await post.send(ana, "#1 C", answering=digest)
        assert "Partida 1: jugaste C (jugada 1)." in post.text(answer)
        assert "Ana сыграл(а) c." in post.text(post.game_mail(ivan, 1))
        post.clock.advance(2.5 * 86400.0)  # Ivan's move: reminded, then forfeited
        await tick(post)
        assert "Напоминание" in post.text(post.inbox(ivan)[-1])
        post.clock.advance(7 * 86400.0)
        await tick(post)
        assert "Ivan no jugó a tiempo" in post.text(post.inbox(ana)[-1])
        assert "не сделал(а) ход вовремя" in post.text(post.inbox(ivan)[-1])

        made = await post.send(ana, "tournament create round-robin wari 2 days Copa")
        assert "Torneo 1: Copa (todos contra todos" in post.text(made)
        await post.send(ivan, "tournament join 1")
        await post.send(ana, "tournament join 1")
        await post.send(ana, "tournament start 1")
        for address in (ana, ivan):
            game = post.inbox(address)[-1]
            if "ronda 1" in post.text(game) or "тур 1" in post.text(game):
                await post.send(address, "resign", answering=game)
                break
        await post.send(ana, "tournament cancel 1")
        assert_in_language(post.inbox(ana), Language.ES)
        assert_in_language(post.inbox(ivan), Language.RU)
    finally:
        await post.close()
        await mailbox.stop()
