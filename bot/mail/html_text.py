"""HTML mail bodies as plain text, without the quoted parts mail clients nest in them.

Block elements and ``<br>`` end lines, ``<pre>`` keeps its spacing, and the subtrees that hold
a quoted earlier message (``<blockquote>``, Gmail's ``gmail_quote``, Thunderbird's
``moz-cite-prefix``, Yahoo's ``yahoo_quoted``) become '>' lines, as a plain-text client would
quote them; Outlook's reply block (``divRplyFwdMsg``) is marked "-----Original Message-----".
The reader then treats them as it treats plain text: it drops quotes from a reply, and reads a
forwarded message when the mail has nothing else.

>>> html_to_text("<div>Move:&nbsp;C</div><blockquote>Move: A</blockquote><p>4 4<br>5 5</p>")
'Move: C\\n> Move: A\\n4 4\\n5 5'

A table reads row by row, its cells apart on one line (Outlook pastes a board as one):

>>> html_to_text("<table><tr><td><p>f</p></td><td><p>e</p></td></tr><tr><td>4</td><td>-</td>"
...              "</tr></table>")
'f  e\\n4  -'
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = {
    "p",
    "div",
    "br",
    "tr",
    "li",
    "pre",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "ul",
    "ol",
    "hr",
    "body",
    "section",
    "article",
    "header",
    "footer",
}
_INVISIBLE = {"script", "style", "head", "title", "template"}
_VOID = {"br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr", "source"}
_QUOTE_CLASSES = re.compile(r"gmail_quote|moz-cite-prefix|yahoo_quoted|protonmail_quote", re.I)
_QUOTE_IDS = re.compile(r"divRplyFwdMsg|appendonsend|mail-editor-reference-message", re.I)


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.skip_depth = 0  # > 0 inside an invisible subtree (script, style...)
        self.quote_depth = 0  # > 0 inside a quote: its lines become '>' lines
        self.pre_depth = 0
        self.stack: list[str] = []  # open non-void tags, to know when a subtree ends
        self.quote_opened: list[bool] = []  # for each open tag: did it open a quote?
        self.marked = False  # Outlook's reply marker was met: what follows is the original
        self.cell_depth = 0  # > 0 inside a table cell: its blocks do not end the row's line

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        if _QUOTE_IDS.search(attributes.get("id", "")) and not self.marked:
            self.marked = True  # Outlook's reply block: mark the original, as in plain text
            self._newline()
            self.lines[-1] = "-----Original Message-----"
            self._newline()
        if tag in ("td", "th"):
            self.cell_depth += 1
            if self.lines[-1].strip():
                self.lines[-1] += "  "  # cells of a row stay on its line, apart
        elif tag in _BLOCKS and not (self.cell_depth and tag != "table"):
            self._newline()
        elif tag in _BLOCKS and self.lines[-1].strip() and not self.lines[-1].endswith(" "):
            self.lines[-1] += " "  # Outlook wraps each cell's text in <p>: a space, not a line
        if tag in _VOID:
            return
        quote = tag == "blockquote" or _QUOTE_CLASSES.search(attributes.get("class", ""))
        if self.skip_depth or tag in _INVISIBLE:
            self.skip_depth += 1
        self.quote_opened.append(bool(quote))
        if quote:
            self.quote_depth += 1
        if tag == "pre":
            self.pre_depth += 1
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or tag not in self.stack:
            if tag in _BLOCKS and not self.cell_depth:
                self._newline()
            return
        # close everything up to the matching tag (browsers forgive unclosed tags; so do we)
        while self.stack:
            open_tag = self.stack.pop()
            if self.quote_opened.pop():
                self._newline()
                self.quote_depth -= 1
            if self.skip_depth:
                self.skip_depth -= 1
            if open_tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)
            if open_tag in ("td", "th"):
                self.cell_depth = max(0, self.cell_depth - 1)
            if open_tag == tag:
                break
        if tag in _BLOCKS and not (self.cell_depth and tag != "table"):
            self._newline()

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if self.pre_depth:
            first, *rest = data.replace("\r\n", "\n").split("\n")
            self._write(first)
            for line in rest:
                self.lines.append("")
                self._write(line)
        else:
            self._write(re.sub(r"[ \t\r\n\f]+", " ", data))

    def _write(self, text: str) -> None:
        """Add ``text`` to the current line; inside a quote, the line is a '>' line."""
        if (
            self.quote_depth
            and not self.lines[-1].startswith(">")
            and (text.strip() or self.pre_depth)
        ):
            self.lines[-1] = ">" * self.quote_depth + " " + self.lines[-1].lstrip()
        self.lines[-1] += text

    def _newline(self) -> None:
        if self.lines[-1].strip():
            self.lines.append("")

    def parse_marked_section(self, i: int, report: int = 1) -> int:
        """Skip ``<![...]>`` whole: Outlook's conditional comments (``<![if !mso]>``), CDATA
        and broken markup, where html.parser's own code asserts on what it does not know."""
        end = self.rawdata.find("]>", i + 3)
        if end >= 0:
            return end + 2
        close = self.rawdata.find(">", i + 3)
        return close + 1 if close >= 0 else -1  # -1: wait for the rest of the input


def html_to_text(html: str) -> str:
    """The visible, unquoted text of an HTML body, one line per block or ``<br>``. Markup the
    parser cannot follow falls back to the text between the tags: a mail is never refused
    for its HTML.

    >>> html_to_text("<p>4 4<![if !supportLists]> <![endif]>5</p><![foo[ x ]]>")
    '4 4 5'
    """
    collector = _TextCollector()
    try:
        collector.feed(html)
        collector.close()
    except Exception:  # noqa: BLE001 - html.parser asserts on some broken markup
        return re.sub(r"[ \t]+", " ", re.sub(r"<[^>]*>?", " ", html)).strip()
    lines = [line.replace("\u00a0", " ").rstrip() for line in collector.lines]
    return "\n".join(lines).strip()
