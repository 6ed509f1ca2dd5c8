"""HTML mail bodies as plain text, without the quoted parts mail clients nest in them.

Block elements and ``<br>`` end lines, ``<pre>`` (and any element styled ``white-space: pre``)
keeps its spacing and its line breaks, and the subtrees that hold
a quoted earlier message (``<blockquote>``, Gmail's ``gmail_quote``, Thunderbird's
``moz-cite-prefix``, Yahoo's ``yahoo_quoted``) become '>' lines, as a plain-text client would
quote them (Gmail's ``gmail_quote`` div and the blockquote in it are one quote, not two);
Outlook's reply block (``divRplyFwdMsg``) is marked "-----Original Message-----".
The reader then treats them as it treats plain text: it drops quotes from a reply, and reads a
forwarded message when the mail has nothing else.

>>> html_to_text("<div>Move:&nbsp;C</div><blockquote>Move: A</blockquote><p>4 4<br>5 5</p>")
'Move: C\\n> Move: A\\n4 4\\n5 5'

A table reads row by row, its cells apart on one line (Outlook pastes a board as one):

>>> html_to_text("<table><tr><td><p>f</p></td><td><p>e</p></td></tr><tr><td>4</td><td>-</td>"
...              "</tr></table>")
'f  e\\n4  -'

A board reads back line for line however a client quoted it: in a ``<pre>`` (its first line
break is the tag's own), with ``<br>`` in it, or as Outlook's paragraphs of ``&nbsp;``:

>>> html_to_text("<div>\\n<pre>\\n   f  e\\n   4  -<br>   A  B</pre></div>")
'   f  e\\n   4  -\\n   A  B'
>>> html_to_text("<p class=MsoNormal>&nbsp;&nbsp; f&nbsp; e<o:p></o:p></p>"
...              "<p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoNormal>&nbsp;&nbsp; 4&nbsp; -</p>")
'   f  e\\n   4  -'
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
# an inline style that keeps spaces and line breaks, as <pre> does (Gmail's pasted blocks)
_PRE_STYLE = re.compile(r"white-space\s*:\s*(pre|pre-wrap|pre-line|break-spaces)\b", re.I)
_COLLAPSED = re.compile(r"[ \t\r\n\f]+")  # HTML's white space (not &nbsp;)


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.skip_depth = 0  # > 0 inside an invisible subtree (script, style...)
        self.quote_depth = 0  # > 0 inside a quote: its lines become '>' lines
        self.pre_depth = 0  # > 0 inside <pre> (or white-space: pre): spacing is kept
        self.pre_fresh = False  # just inside a <pre>: a line break first is the tag's own
        self.stack: list[str] = []  # open non-void tags, to know when a subtree ends
        self.quote_opened: list[bool] = []  # for each open tag: did it open a quote?
        self.pre_opened: list[bool] = []  # for each open tag: did it keep spacing?
        self.containers: list[int] = []  # the quote depths opened by a quote's container div
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
        elif tag == "br" and self.pre_depth and not self.cell_depth:
            self.lines.append("")  # in <pre> every break counts, even on an empty line
        elif tag in _BLOCKS and not (self.cell_depth and tag != "table"):
            self._newline()
        elif tag in _BLOCKS and self.lines[-1].strip() and not self.lines[-1].endswith(" "):
            self.lines[-1] += " "  # Outlook wraps each cell's text in <p>: a space, not a line
        if tag in _VOID:
            return
        quote = tag == "blockquote" or bool(_QUOTE_CLASSES.search(attributes.get("class", "")))
        if quote and self.containers and self.containers[-1] == self.quote_depth:
            # Gmail's <div class="gmail_quote"> holds the "On ... wrote:" line and the
            # blockquote: that is one quote, as a plain-text client writes it, not two
            quote = False
        if self.skip_depth or tag in _INVISIBLE:
            self.skip_depth += 1
        self.quote_opened.append(quote)
        if quote:
            self.quote_depth += 1
            if tag != "blockquote":
                self.containers.append(self.quote_depth)
        keeps = tag == "pre" or bool(_PRE_STYLE.search(attributes.get("style", "")))
        self.pre_opened.append(keeps)
        if keeps:
            self.pre_depth += 1
            self.pre_fresh = tag == "pre"
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
                if self.containers and self.containers[-1] == self.quote_depth:
                    self.containers.pop()
                self.quote_depth -= 1
            if self.skip_depth:
                self.skip_depth -= 1
            if self.pre_opened.pop():
                self.pre_depth = max(0, self.pre_depth - 1)
                self.pre_fresh = False
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
            data = data.replace("\r\n", "\n").replace("\r", "\n")
            if self.pre_fresh and data:
                self.pre_fresh = False
                data = data.removeprefix("\n")
            first, *rest = data.split("\n")
            self._write(first)
            for line in rest:
                self.lines.append("")
                self._write(line)
        else:
            text = _COLLAPSED.sub(" ", data)
            if not _COLLAPSED.sub("", self.lines[-1]).lstrip(">"):
                text = text.lstrip(" ")  # spaces that begin a line are the source's layout
                if not self.lines[-1].startswith(">"):
                    self.lines[-1] = ""
            self._write(text)

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
        else:
            self.lines[-1] = ""  # the spaces between two blocks are no line of their own

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
    return "\n".join(lines).strip("\n")  # a board's first row keeps its leading spaces
