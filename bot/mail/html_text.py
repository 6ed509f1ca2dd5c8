"""HTML mail bodies as plain text, without the quoted parts mail clients nest in them.

Block elements and ``<br>`` end lines, ``<pre>`` keeps its spacing, and the subtrees that hold
a quoted earlier message (``<blockquote>``, Gmail's ``gmail_quote``, Thunderbird's
``moz-cite-prefix``, Yahoo's ``yahoo_quoted``, Outlook's ``divRplyFwdMsg``) are dropped, since
the bot reads only what the sender wrote now.

>>> html_to_text("<div>Move:&nbsp;C</div><blockquote>Move: A</blockquote><p>4 4<br>5 5</p>")
'Move: C\\n4 4\\n5 5'

A table reads row by row, its cells apart on one line (Outlook pastes a board as one):

>>> html_to_text("<table><tr><td><p>f</p></td><td><p>e</p></td></tr><tr><td>4</td><td>-</td>"
...              "</tr></table>")
'f  e\\n4  -'
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = {"p", "div", "br", "tr", "li", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "table",
           "ul", "ol", "hr", "body", "section", "article", "header", "footer"}
_INVISIBLE = {"script", "style", "head", "title", "template"}
_VOID = {"br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr", "source"}
_QUOTE_CLASSES = re.compile(r"gmail_quote|moz-cite-prefix|yahoo_quoted|protonmail_quote", re.I)
_QUOTE_IDS = re.compile(r"divRplyFwdMsg|appendonsend|mail-editor-reference-message", re.I)


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.skip_depth = 0  # > 0 inside a dropped subtree (quote or invisible)
        self.pre_depth = 0
        self.stack: list[str] = []  # open non-void tags, to know when a dropped subtree ends
        self.stop = False  # after Outlook's reply marker, everything is the old message
        self.cell_depth = 0  # > 0 inside a table cell: its blocks do not end the row's line

    def handle_starttag(self, tag: str, attrs) -> None:
        if self.stop:
            return
        attributes = {k: v or "" for k, v in attrs}
        if _QUOTE_IDS.search(attributes.get("id", "")):
            self.stop = True
            return
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
        dropped = (tag == "blockquote" or tag in _INVISIBLE
                   or _QUOTE_CLASSES.search(attributes.get("class", "")))
        if self.skip_depth or dropped:
            self.skip_depth += 1
        if tag == "pre":
            self.pre_depth += 1
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.stop or tag in _VOID or tag not in self.stack:
            if tag in _BLOCKS and not self.cell_depth:
                self._newline()
            return
        # close everything up to the matching tag (browsers forgive unclosed tags; so do we)
        while self.stack:
            open_tag = self.stack.pop()
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
        if self.stop or self.skip_depth:
            return
        if self.pre_depth:
            first, *rest = data.replace("\r\n", "\n").split("\n")
            self.lines[-1] += first
            self.lines.extend(rest)
        else:
            self.lines[-1] += re.sub(r"[ \t\r\n\f]+", " ", data)

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
