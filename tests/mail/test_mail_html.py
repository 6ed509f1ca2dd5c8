"""Mail that reads right on a phone (bot/mail/html_mail.py, bot/mail/replies.py): every mail
the bot sends is multipart/alternative, its plain text as it always was, then HTML with each
board in a monospace block and its picture inline (multipart/related, a Content-ID the HTML
refers to, alt text); under 100 KB, Togyz Kumalak's board and a digest of many games too.

Replies to that HTML, quoted as Gmail, Outlook (desktop and on the web) and Apple Mail quote
it, with the player's move above the quote, read as that move; their quote reads back as the
boards we sent, and a board the player copies out of the HTML reads as the board it was.
The quoting here is each client's documented markup, built around the HTML we really send;
tests/data/mail_corpus holds mails built this way (``write_corpus`` below)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import Language, speaking
from bot.mail.digest import digest_mail
from bot.mail.html_mail import MAIL_LIMIT, MOST_PICTURES, board_png, find_boards, html_mail
from bot.mail.html_text import html_to_text
from bot.mail.mail_commands import parse_command
from bot.mail.position_mail import parse_position_mail
from bot.mail.reading import read_mail
from bot.mail.replies import build_reply, new_message
from bot.render.board_picture import describe_board
from bot.service import Channel, GameOptions, Player
from bot.service.events import DigestDue
from engine import Position, Ruleset, Side, render
from engine.ai import LEVELS
from tests.mail.mail_support import Mailbox, mail

ANN, BOB = Player("email", "ann@example.org"), Player("email", "bob@example.org")
BOT = "Mancala <mancala@bot.test>"


@pytest.fixture
def table_options():
    """A sender with a display name, this file's own secret, and the AI level that plays the
    first legal move."""
    return {"bot_address": BOT, "secret": b"html-secret", "level": "first"}


# -- what every mail must be -------------------------------------------------------------------


def plain(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content()


def html_of(message: EmailMessage) -> str:
    return message.get_body(("html",)).get_content().replace("\r\n", "\n")


def boards_in(text: str, shown: Sequence[Position] = ()) -> list[tuple[Position | None, str]]:
    """The boards of a text: each position read, and its lines as written. ``shown``: the
    positions the mail was told its boards show (see ``find_boards``)."""
    lines = text.split("\n")
    return [
        (b.position, "\n".join(x.rstrip() for x in lines[b.first : b.last + 1]))
        for b in find_boards(text, shown)
    ]


def check_mail(message: EmailMessage, shown: Sequence[Position] = ()) -> int:
    """Assert the shape every mail of the bot has; return how many pictures it shows.
    ``shown``: the positions its boards show, where the text cannot say their side."""
    raw = message.as_bytes()
    assert len(raw) < MAIL_LIMIT, len(raw)
    again = BytesParser(policy=policy.default).parsebytes(raw)  # as the player's client reads it
    assert again.get_content_type() == "multipart/alternative"
    first, second = again.get_payload()
    assert first.get_content_type() == "text/plain"  # the plain text first: clients show the last
    text = first.get_content()
    markup = again.get_body(("html",)).get_content()
    pictures = [p for p in again.walk() if p.get_content_type() == "image/png"]
    boards = [b for b in boards_in(text, shown) if b[0] is not None]
    if pictures:
        assert second.get_content_type() == "multipart/related"
        assert second.get_param("type") == "text/html"
        assert second.get_payload()[0].get_content_type() == "text/html"
    else:
        assert second.get_content_type() == "text/html"
    assert len(pictures) <= len(boards)
    for picture, (position, _) in zip(pictures, boards, strict=False):  # the first boards'
        cid = picture["Content-ID"].strip("<>")
        assert picture.get_content_disposition() == "inline"
        assert picture.get_content()[:8] == b"\x89PNG\r\n\x1a\n"
        tag = re.search(rf'<img src="cid:{re.escape(cid)}" alt="([^"]+)"', markup)
        assert tag and html.unescape(tag.group(1)) == describe_board(position)  # in words
    assert "http://" not in markup and "https://" not in markup  # nothing fetched from afar
    assert "<style" not in markup  # inline CSS only
    assert markup.count("<pre") >= len(boards_in(text))  # each board in a monospace block
    # the HTML read as text keeps every board of the plain text, line for line
    read = html_to_text(markup)
    for _, lines in boards_in(text):
        assert lines in read
    assert boards_in(read, shown) == boards_in(text, shown)
    return len(pictures)


def old_plain_message(body: str) -> EmailMessage:
    """The text/plain mail replies.new_message built before mail had HTML, for comparison."""
    message = EmailMessage()
    if body.isascii() and max(map(len, body.split("\n"))) < 900:
        message.set_raw("MIME-Version", "1.0")
        message.set_raw("Content-Type", 'text/plain; charset="utf-8"')
        message.set_raw("Content-Transfer-Encoding", "7bit")
        message.set_payload(body)
    else:
        message.set_content(body, charset="utf-8", cte="quoted-printable")
    return message


@pytest.mark.parametrize(
    "body",
    [
        "Hello",
        render(Position.initial(Ruleset.parse("togyz-kumalak"))) + "\n\nMove: ",
        "Voilà : « Partie 1 », à vous.\n\n" + render(Position.initial(Ruleset.parse("wari"))),
        "Ваш ход.\n" + "x" * 1200,
    ],
    ids=["ascii", "board", "french", "long-line"],
)
def test_the_plain_text_part_is_the_mail_as_it_was(body):
    before = old_plain_message(body)
    part = new_message("ann@example.org", "wari", body, BOT).get_body(("plain",))
    assert part["Content-Type"] == before["Content-Type"]
    assert part["Content-Transfer-Encoding"] == before["Content-Transfer-Encoding"]
    assert part.get_payload() == before.get_payload()
    assert part.get_content() == before.get_content()


def test_cyrillic_text_travels_in_base64_and_reads_the_same():
    """Quoted-printable triples Cyrillic: the text part, unchanged, takes base64 instead
    (a Kazakh digest of fifty games would not fit in 100 KB otherwise)."""
    body = "Сіздің жүрісіңіз: ойын 1, Солтүстікке қарсы.\n\n" + render(
        Position.initial(Ruleset.parse("wari"))
    )
    part = new_message("ann@example.org", "wari", body, BOT).get_body(("plain",))
    assert part["Content-Transfer-Encoding"] == "base64"
    assert part.get_content() == old_plain_message(body).get_content()


@pytest.mark.parametrize("language", [Language.FR, Language.RU, Language.KK])
def test_a_mail_in_another_language_says_so_and_describes_its_board_in_it(language):
    position = Position.initial(Ruleset.parse("wari")).play("E")
    body = "Rules: wari\nSide: north\n\n" + render(position, Side.NORTH) + "\n\nMove: "
    with speaking(language):
        message = new_message("ann@example.org", "wari", body, BOT)
        alt = describe_board(position)
    markup = html_of(message)
    assert f'<html lang="{language.value}">' in markup
    assert f'alt="{html.escape(alt)}"' in markup
    assert plain(message) == body + ("\n" if not body.isascii() else "")


# -- every kind of mail ------------------------------------------------------------------------


OPENING = """Rules: kalah
Side: north

    f  e  d  c  b  a
    4  4  4  4  4  4
 0                   0
    4  4  4  4  4  4
    A  B  C  D  E  F
South to move.
"""


def to(mailbox: Mailbox, address: str) -> list[EmailMessage]:
    return [m for m in mailbox.messages if m["To"] == address]


async def test_every_kind_of_mail_is_text_then_html_with_its_boards_pictured(table):
    surface, service, mailbox = table
    bot = surface.bot

    async def ask(body: str, **headers) -> EmailMessage:
        [reply] = await bot.answer(mail(body, **headers), "ann@example.org", ["mancala@bot.test"])
        return reply

    answer = await ask(OPENING)  # a position mail's answer, seen from North
    assert check_mail(answer) == 1
    [board] = find_boards(plain(answer))
    assert board.seen_from == Side.NORTH and board.position.rules.name == "kalah"
    error = await ask("Rules: wari\nMove: E")  # a refusal, with the format and its example board
    assert "could not read your mail" in plain(error) and check_mail(error) == 1
    assert check_mail(await ask("help")) == 0  # no board: HTML without a picture

    await bot.process(
        mail("challenge bob@example.org togyz-kumalak as south"),
        "ann@example.org",
        ["mancala@bot.test"],
    )
    await service.idle()
    challenge = to(mailbox, "bob@example.org")[-1]
    assert "challenge" in challenge["Subject"] and check_mail(challenge) == 0
    opened = (await service.open_challenges(ANN))[0]
    await service.accept(opened.id, BOB)
    await service.idle()
    begun = to(mailbox, "ann@example.org")[-1]
    assert "Your move, move 1" in plain(begun) and check_mail(begun) == 1
    await service.move(1, ANN, "C", expected_ply=0)
    await service.idle()
    notice = to(mailbox, "bob@example.org")[-1]  # the move notice, to North
    assert "Your move, move 2" in plain(notice) and check_mail(notice) == 1
    game = await service.get_game(1)
    [board] = find_boards(plain(notice))
    assert board.seen_from == Side.NORTH and board.position == game.position
    # and the picture beside it is drawn from North's side too: Bob's row at the bottom
    [picture] = [p for p in notice.walk() if p.get_content_type() == "image/png"]
    assert picture.get_content() == board_png(game.position, Side.NORTH)
    assert picture.get_content() != board_png(game.position, Side.SOUTH)
    await service.resign(1, BOB)
    await service.idle()
    over = to(mailbox, "ann@example.org")[-1]
    assert "Game over" in plain(over) and check_mail(over) == 1

    digest = await digest_mail(
        bot.correspondence.mailer,
        DigestDue(recipient=ANN, games=(await service.get_game(1),), day=20_000),
    )
    assert "digest" in digest["Subject"] and check_mail(digest) == 1


# -- the biggest mails -------------------------------------------------------------------------


def busy_togyz() -> Position:
    """A Togyz Kumalak board with 3-digit counts, tuzdyks, kazans and a last move."""
    rules = Ruleset.parse("togyz-kumalak")
    pits = (100, 0, 1, 0, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 9, 0, 0, 2)
    return Position.settled(rules, pits + (20, 5), 1, "A", tuzdyks=(13, 3))


def test_the_biggest_board_stays_well_under_the_limit():
    position = busy_togyz()
    body = "I played A.\n\nRules: togyz-kumalak\nSide: south\n\n" + render(position) + "\n\nMove: "
    message = new_message("ann@example.org", "togyz", body, BOT)
    assert check_mail(message) == 1
    assert len(message.as_bytes()) < 25_000  # the picture is a few KB


async def test_a_digest_of_many_games_pictures_the_first_and_writes_the_rest(table):
    """Fifty games, as many as a digest lists, half of them seen from North: pictures for
    the first, then the boards in their monospace blocks alone, under 100 KB; in Kazakh too,
    whose text alone, with its HTML, leaves no room for a picture."""
    surface, service, mailbox = table
    rulesets = ["togyz-kumalak", "kalah", "wari", "al-manqala", "bestemshe", "oware"]
    games = []
    for number in range(50):  # Ann plays North in half the games, South in the others
        rules = rulesets[number % len(rulesets)]
        bob_side = "south" if number % 2 else "north"
        challenge = await service.challenge(
            BOB, ANN, rules, Channel("email", f"bob/{number}"), GameOptions(side=bob_side)
        )
        game = await service.accept(challenge.id, ANN)
        if bob_side == "south":
            await service.move(game.id, BOB, game.position.legal_moves()[-1], expected_ply=0)
        games.append(game)
    views = tuple([await service.get_game(game.id) for game in games])
    shown = [view.position for view in views]
    for language in (Language.EN, Language.RU, Language.KK):
        with speaking(language):
            digest = await digest_mail(
                surface.bot.correspondence.mailer,
                DigestDue(recipient=ANN, games=views, day=20_001),
            )
            pictured = check_mail(digest, shown)
        assert len(digest.as_bytes()) < MAIL_LIMIT
        markup = html_of(digest)
        assert markup.count("<pre") >= 50 and markup.count("<img") == pictured
        if language is Language.EN:
            assert 2 <= pictured <= MOST_PICTURES
            # the pictures are the first games'; every board is written out
            assert markup.index("<img") < markup.index(f"Game {views[2].id} [")


# -- replies quoted by the mail clients ----------------------------------------------------------


def inner(markup: str) -> str:
    """What a client keeps of our HTML when it quotes it: the body's content."""
    return re.search(r"<body[^>]*>(.*)</body>", markup, re.S).group(1)


def gmail_quote(sent: EmailMessage, own: str) -> str:
    """Gmail (web and phone) replies: its own text in a div, then ours in a blockquote."""
    when = "On Sun, Nov 22, 2026 at 10:05\u202fAM Mancala &lt;"
    address = sent["Reply-To"] or "mancala@bot.test"
    quoted = re.sub(r'src="cid:[^"]+"', 'src="cid:ii_m3k2q0x10"', inner(html_of(sent)))
    return (
        f'<div dir="ltr">{own}</div><br><div class="gmail_quote gmail_quote_container">'
        f'<div dir="ltr" class="gmail_attr">{when}<a href="mailto:{address}">{address}</a>'
        '&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px '
        f'0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">{quoted}'
        "</blockquote></div>\n"
    )


def apple_quote(sent: EmailMessage, own: str) -> str:
    """Apple Mail (macOS and iOS): ``<blockquote type="cite">`` around our HTML."""
    quoted = re.sub(
        r'<img src="cid:[^"]+"', '<img src="cid:8D0B3F7E-AF0C-4BB4-9E0E"', inner(html_of(sent))
    )
    return (
        '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
        '<body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: '
        f'after-white-space;">{own}<div><br><blockquote type="cite"><div>On 22 Nov 2026, at '
        '10:05, Mancala &lt;mancala@bot.test&gt; wrote:</div><br class="Apple-interchange-'
        f'newline"><div>{quoted}</div></blockquote></div><br></body></html>\n'
    )


def word_spaces(line: str) -> str:
    """A line as Word writes it: leading spaces as &nbsp;, and a run of spaces inside it as
    &nbsp; and one real space."""
    escaped = html.escape(line, quote=False)
    lead = len(escaped) - len(escaped.lstrip(" "))
    rest = re.sub(r" {2,}", lambda m: "&nbsp;" * (len(m.group()) - 1) + " ", escaped[lead:])
    return "&nbsp;" * lead + rest


def as_word(markup: str) -> str:
    """Our HTML as Outlook for Windows (Word) rewrites what it quotes: every paragraph a
    MsoNormal, each line of a <pre> a paragraph of its own in Courier New with &nbsp;, the
    picture an image001.png."""
    body = inner(markup)

    def pre(found: re.Match[str]) -> str:
        lines = html.unescape(found.group(1)).split("\n")
        return "".join(
            "<p class=MsoNormal><span style='font-family:\"Courier New\"'>"
            + (word_spaces(line) if line.strip() else "<o:p>&nbsp;</o:p>")
            + "<o:p></o:p></span></p>\n"
            for line in lines
        )

    body = re.sub(r"<pre[^>]*>(.*?)</pre>", pre, body, flags=re.S)
    body = re.sub(r"<p [^>]*>", "<p class=MsoNormal>", body)
    body = body.replace("</p>", "<o:p></o:p></p>").replace("<o:p></o:p><o:p></o:p>", "<o:p></o:p>")
    return re.sub(
        r'<img src="cid:[^"]+" alt="([^"]*)" width="(\d+)"[^>]*>',
        r'<p class=MsoNormal><img width=\2 id="Picture_x0020_1" '
        r'src="cid:image001.png@01DB3C5A.9F8E7D60" alt="\1"><o:p></o:p></p>',
        body,
    )


def outlook_quote(sent: EmailMessage, own: str) -> str:
    """Outlook for Windows: its own paragraphs, the header block under a top border, then
    our HTML as Word rewrote it (no blockquote, no '>')."""
    subject = html.escape(sent["Subject"], quote=False)
    return (
        '<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:'
        'office:office"><head><meta http-equiv=Content-Type content="text/html; charset=utf-8">'
        '<style><!-- p.MsoNormal {margin:0cm; font-size:11.0pt; font-family:"Calibri"} -->'
        "</style></head><body lang=EN-GB link=\"#0563C1\" style='word-wrap:break-word'>"
        f"<div class=WordSection1><p class=MsoNormal>{own}<o:p></o:p></p>\n"
        "<p class=MsoNormal><o:p>&nbsp;</o:p></p>\n"
        "<div style='border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm'>"
        "<p class=MsoNormal><b>From:</b> Mancala &lt;mancala@bot.test&gt; <br><b>Sent:</b> "
        "Sunday, November 22, 2026 10:05 AM<br><b>To:</b> Ann Lee &lt;ann@example.org&gt;<br>"
        f"<b>Subject:</b> {subject}<o:p></o:p></p></div>\n"
        "<p class=MsoNormal><o:p>&nbsp;</o:p></p>\n"
        f"{as_word(html_of(sent))}</div></body></html>\n"
    )


def outlook_web_quote(sent: EmailMessage, own: str) -> str:
    """Outlook on the web and new Outlook: ``divRplyFwdMsg`` and an ``<hr>``, then our HTML
    with its classes prefixed ``x_`` and each <pre>'s line breaks as ``<br>``."""
    quoted = re.sub(
        r"<pre([^>]*)>(.*?)</pre>",
        lambda m: f"<pre{m.group(1)}>" + m.group(2).replace("\n", "<br>") + "</pre>",
        inner(html_of(sent)),
        flags=re.S,
    )
    return (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
        '</head><body><div class="elementToProof" style="font-family: Aptos, sans-serif; '
        f'font-size: 12pt;">{own}</div><div id="appendonsend"></div>'
        '<hr style="display:inline-block;width:98%" tabindex="-1">'
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:'
        '11pt" color="#000000"><b>From:</b> Mancala &lt;mancala@bot.test&gt;<br><b>Sent:</b> '
        "Sunday, November 22, 2026 10:05<br><b>To:</b> Ann Lee &lt;ann@example.org&gt;<br>"
        f"<b>Subject:</b> {html.escape(sent['Subject'], quote=False)}</font><div>&nbsp;</div>"
        f'</div><div class="x_elementToProof">{quoted}</div></body></html>\n'
    )


QUOTERS = {
    "gmail": gmail_quote,
    "apple": apple_quote,
    "outlook": outlook_quote,
    "outlook_web": outlook_web_quote,
}


def reply_mail(
    sent: EmailMessage, markup: str, text: str | None, sender: str, name: str, mailer: str
) -> bytes:
    """The player's reply as their client sends it: HTML only, or with a text part."""
    message = EmailMessage(policy=policy.SMTP)
    message["From"] = f"{sender.partition('@')[0].title()} Lee <{sender}>"
    message["To"] = sent["Reply-To"] or "mancala@bot.test"
    message["Subject"] = "Re: " + sent["Subject"]
    message["Date"] = "Sun, 22 Nov 2026 10:12:31 +0100"
    message["Message-ID"] = f"<{name}@example.org>"
    if sent["Message-ID"]:
        message["In-Reply-To"] = sent["Message-ID"]
        message["References"] = (sent["References"] or "") + " " + sent["Message-ID"]
    message["X-Mailer"] = mailer
    if text is None:
        message.set_content(markup, subtype="html", charset="utf-8", cte="quoted-printable")
    else:
        message.set_content(text, charset="utf-8", cte="quoted-printable")
        message.add_alternative(markup, subtype="html", charset="utf-8", cte="quoted-printable")
    return message.as_bytes()


MAILERS = {
    "gmail": "Gmail",  # Gmail sets no X-Mailer; the header is only a label here
    "apple": "Apple Mail (2.3774.600.62)",
    "outlook": "Microsoft Outlook 16.0",
    "outlook_web": "Microsoft Outlook on the web",
}


def quoted_original(text: str) -> str:
    """The quoted message of a reply read as text: its '>' lines without the '>', or what
    follows Outlook's header block."""
    lines = text.split("\n")
    quoted = [x for x in lines if x.startswith(">")]
    if quoted:
        return "\n".join(x[1:].removeprefix(" ") for x in quoted)
    start = next(i for i, x in enumerate(lines) if re.match(r"\s*Subject:", x))
    return "\n".join(lines[start + 1 :])


@pytest.mark.parametrize("with_text", [False, True], ids=["html-only", "with-text-part"])
@pytest.mark.parametrize("client", sorted(QUOTERS))
async def test_a_move_above_a_quoted_html_mail_is_read_and_the_quote_is_the_board(
    table, client, with_text
):
    surface, service, mailbox = table
    challenge = await service.challenge(ANN, BOB, "kalah", Channel("email", "ann/1"))
    await service.accept(challenge.id, BOB)
    await service.move(1, ANN, "A", expected_ply=0)
    await service.idle()
    sent = to(mailbox, "bob@example.org")[-1]  # Bob, North, is to move: move 2
    own = (
        "Move 2: C" if client != "outlook" else "Move 2: C<o:p></o:p></p><p class=MsoNormal>Thanks!"
    )
    markup = QUOTERS[client](sent, own)
    # the text part a client writes beside it: the move, and the quote without the board
    text = "Move 2: C\n\nOn Sun, 22 Nov 2026, Mancala <mancala@bot.test> wrote:\n> Ann played A.\n"
    raw = reply_mail(
        sent, markup, text if with_text else None, "bob@example.org", client, MAILERS[client]
    )

    incoming = read_mail(raw, "bob@example.org", ["mancala@bot.test"])
    command = parse_command(incoming.text)
    assert (command.verb, command.move, command.number) == ("move", "C", 2)
    assert "A  B  C" not in incoming.text and "Mancala" not in incoming.text
    # the quote, read from the HTML, is the board we sent, line for line
    read = html_to_text(markup)
    assert boards_in(quoted_original(read)) == boards_in(plain(sent))

    replies = await surface.bot.answer(raw, "bob@example.org", ["mancala@bot.test"])
    await service.idle()
    assert replies and "You played C (move 2)" in plain(replies[0])
    assert (await service.get_game(1)).moves == ("A", "c")


def copied_board(sent: EmailMessage, client: str) -> str:
    """The player's own text when they copy our position mail's lines out of its HTML and
    paste them above the quote, as each client pastes a monospace block."""
    text = plain(sent)
    form = text[text.index("Rules:") :].replace("Move: ", "Move: C")
    lines = form.split("\n")
    if client == "outlook":
        return (
            "<o:p></o:p></p>".join(
                f"<p class=MsoNormal><span style='font-family:\"Courier New\"'>{word_spaces(x)}</span>"
                if x.strip()
                else "<p class=MsoNormal><o:p>&nbsp;</o:p>"
                for x in lines
            )
            + "<o:p></o:p></p><p class=MsoNormal>"
        )
    if client == "gmail":  # Gmail keeps the block's style on a div, the lines in it
        return (
            'Here is my move.<br><br><div style="font-family:ui-monospace,Menlo,Consolas,'
            f'monospace;white-space:pre">{html.escape(form, quote=False)}</div>'
        )
    if client == "apple":  # Apple Mail pastes the <pre> itself
        return f"<div>Here it is.</div><pre>\n{html.escape(form, quote=False)}</pre>"
    return "<br>".join(html.escape(x, quote=False).replace("  ", "&nbsp; ") for x in lines)


@pytest.mark.parametrize("client", sorted(QUOTERS))
async def test_a_board_copied_out_of_the_html_reads_as_the_board_sent(table, client):
    surface, service, mailbox = table
    [sent] = await surface.bot.answer(mail(OPENING), "ann@example.org", ["mancala@bot.test"])
    markup = QUOTERS[client](sent, copied_board(sent, client))
    raw = reply_mail(sent, markup, None, "ann@example.org", client, MAILERS[client])
    incoming = read_mail(raw, "ann@example.org", ["mancala@bot.test"])
    request = parse_position_mail(incoming.text, tuple(LEVELS))
    [(shown, _)] = boards_in(plain(sent))
    assert request.moves == ["C"] and request.side == Side.NORTH
    assert request.position == shown  # the board we sent, read back
    [answer] = await surface.bot.answer(raw, "ann@example.org", ["mancala@bot.test"])
    assert "You played C." in plain(answer)


CORPUS = Path(__file__).parent / "data" / "mail_corpus"
QUOTED_MOVES = [
    "gmail_html_quote_move",
    "apple_html_quote_move",
    "outlook_word_quote_move",
    "outlook_web_quote_move",
]


@pytest.mark.parametrize("name", QUOTED_MOVES)
def test_the_corpus_replies_quote_the_board_we_sent(name):
    """tests/mail/test_mail_corpus.py reads their move; here, their quote: Bob's Kalah board,
    from North, after Ann's A."""
    raw = (CORPUS / f"{name}.eml").read_bytes()
    message = BytesParser(policy=policy.default).parsebytes(raw)
    read = html_to_text(message.get_body(("html",)).get_content())
    [(position, lines)] = boards_in(quoted_original(read))
    assert position.pits == (0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4) and position.stores == (0, 0)
    assert position.to_move == Side.NORTH and position.last_move == "A"
    assert lines.split("\n")[-1] == "North to move; last move a."


# -- the property: the HTML read as text keeps every board ---------------------------------------

RULESETS = ["kalah", "wari", "togyz-kumalak", "al-manqala", "bestemshe", "mankala"]


@st.composite
def positions(draw) -> Position:
    rules = Ruleset.parse(draw(st.sampled_from(RULESETS)))
    position = Position.initial(rules)
    for _ in range(draw(st.integers(0, 80))):
        if position.is_over():
            break
        position = position.play(draw(st.sampled_from(position.legal_moves())))
    return position


@st.composite
def mail_texts(draw) -> tuple[str, list[Position]]:
    """Texts as the bot writes them: sentences, and boards from either side, under a
    position mail's key lines or a game mail's sentence (whose side only the caller knows)."""
    parts, shown = [], []
    for number in range(1, draw(st.integers(1, 4)) + 1):
        position, side = draw(positions()), draw(st.sampled_from(list(Side)))
        words = draw(
            st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=40)
        )
        if draw(st.booleans()):
            head = f"Rules: {position.rules}\nSide: {side}"
        else:
            head = f"Game {number}: {position.rules}. You play {side.title()} against Ann."
        parts.append(
            f'{words.strip() or "Your move."} <b>&amp; "ok"</b>\n\n'
            f"{head}\n\n{render(position, side)}\n"
        )
        shown.append(position)
    return "\n".join(parts) + "\nMove: ", shown


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(mail_texts())
def test_the_html_read_as_text_keeps_every_board(case):
    text, shown = case
    made = html_mail(text, "bot.test", shown, most_pictures=1)
    read = html_to_text(made.html)
    boards = boards_in(text, shown)
    assert [p for p, _ in boards] == shown  # the boards are found, and read right
    for _, lines in boards:
        assert lines in read
    assert boards_in(read, shown) == boards
    quoted = html_to_text(f"<p>Move: C</p><blockquote>{inner(made.html)}</blockquote>")
    assert boards_in(quoted_original(quoted), shown) == boards


async def test_a_game_mail_pictures_the_board_its_player_sees_after_an_extra_turn(table):
    surface, service, mailbox = table
    challenge = await service.challenge(ANN, BOB, "kalah", Channel("email", "ann/1"))
    await service.accept(challenge.id, BOB)
    await service.move(1, ANN, "C", expected_ply=0)  # into her store: she moves again
    await service.idle()
    notice = to(mailbox, "bob@example.org")[-1]
    [board] = find_boards(plain(notice), [(await service.get_game(1)).position])
    assert board.seen_from == Side.NORTH
    assert "South to move again" in html.unescape(html_of(notice))  # the alt text
    assert check_mail(notice, [(await service.get_game(1)).position]) == 1


def test_a_board_whose_side_the_text_cannot_tell_is_read_from_the_positions_given():
    """Kalah's stores, from North, after South's extra turn: only the caller can say."""
    rules = Ruleset.parse("kalah")
    position = Position.initial(rules).play("C")  # C's last seed in South's store: again
    text = "Your opponent played C.\n\n" + render(position, Side.NORTH)
    [board] = find_boards(text, [position])
    assert board.seen_from == Side.NORTH and board.position == position
    reply = build_reply(
        read_mail(b"From: bob@example.org\r\n\r\nboard"), text, BOT, positions=[position]
    )
    assert check_mail(reply, [position]) == 1
