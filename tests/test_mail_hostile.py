"""Mail as hostile or broken senders send it: every such mail is read or refused, never a
crash. (The rest of the mail classes of the robustness issue are still open; see the note.)"""

import pytest

from bot.mail.html_text import html_to_text
from bot.mail.reading import read_mail


@pytest.mark.parametrize("html, text", [
    ("<p>4 4<![if !supportLists]> <![endif]>5</p>", "4 4 5"),  # Outlook's conditionals
    ("<![foo[ x ]]><p>C</p>", "C"),  # a keyword html.parser does not know: it asserted
    ("<p><![ x", "<![ x"),  # a marked section with no end
    ("<div>Move: D<![CDATA[ ignored ]]></div>", "Move: D"),
])
def test_marked_sections_in_html_never_crash_the_reader(html, text):
    assert html_to_text(html) == text


def test_a_whole_html_mail_with_a_broken_marked_section_is_read():
    raw = (b"From: Ann <ann@example.org>\r\nTo: mancala@example.org\r\nSubject: move\r\n"
           b"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
           b"<html><body><![if !mso]><p>Move: C</p><![endif]><![bogus[</body></html>\r\n")
    mail = read_mail(raw)
    assert "Move: C" in mail.text
