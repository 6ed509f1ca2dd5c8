"""What an offer (a draw, an agreed end, a take-back) says, on every surface, in one place.

Each table is keyed by the offer's kind (``OfferKind``) and holds messages marked with
``N_``: a surface translates one where it shows it, in the reader's language, with
``_(TABLE[kind])`` (``offer_asks``/``offer_noun`` do so for the two phrases). A new kind of
offer, or a change of wording, is made here, and every surface follows.

The Discord and the mail sentences of a made offer (``OFFER_MADE``, ``OFFER_MADE_HEADLINE``)
read the same in English but are separate messages: their translations were written apart
and differ, and keeping both keeps every language's text as its readers know it.

>>> offer_asks("draw"), offer_noun(OfferKind.END)
('offers a draw', 'an agreed end')
>>> _(OFFER_MADE[OfferKind.UNDO]).format(player="Ann")
'Ann asks to take back their last move.'
"""

from __future__ import annotations

from bot.i18n import N_, _
from storage.records import OfferKind

# What each offer asks, in the words every surface uses: after a name ("Alice offers a
# draw") and as a noun ("your offer of a draw").
OFFER_ASKS: dict[OfferKind, str] = {
    # TRANSLATORS: follows a player's name: "Alice offers a draw".
    OfferKind.DRAW: N_("offers a draw"),
    # TRANSLATORS: follows a player's name: "Alice offers to end the game here, ...".
    OfferKind.END: N_("offers to end the game here, scored as agreed"),
    # TRANSLATORS: follows a player's name: "Alice asks to take back their last move".
    OfferKind.UNDO: N_("asks to take back their last move"),
}
OFFER_NOUNS: dict[OfferKind, str] = {
    # TRANSLATORS: an offer as a noun: "You offer a draw."
    OfferKind.DRAW: N_("a draw"),
    # TRANSLATORS: an offer as a noun: "You offer an agreed end."
    OfferKind.END: N_("an agreed end"),
    # TRANSLATORS: an offer as a noun: "You offer a take-back."
    OfferKind.UNDO: N_("a take-back"),
}

# A pending offer as a game's board shows it on Discord; {player} is its maker.
OFFER_MADE: dict[OfferKind, str] = {
    OfferKind.DRAW: N_("{player} offers a draw."),
    OfferKind.END: N_("{player} offers to end the game here, scored as agreed."),
    OfferKind.UNDO: N_("{player} asks to take back their last move."),
}
# An answered offer as Discord tells the game, by kind and whether it was accepted;
# {player} answered it.
OFFER_ANSWERED: dict[tuple[OfferKind, bool], str] = {
    (OfferKind.DRAW, True): N_("{player} accepted the draw offer."),
    (OfferKind.DRAW, False): N_("{player} declined the draw offer."),
    (OfferKind.END, True): N_("{player} agreed to end the game here."),
    (OfferKind.END, False): N_("{player} declined to end the game here."),
    (OfferKind.UNDO, True): N_("{player} let their opponent take back the move."),
    (OfferKind.UNDO, False): N_("{player} declined the take-back."),
}

# The headline of the mail that tells the other player of an offer; {name} is its maker.
OFFER_MADE_HEADLINE: dict[OfferKind, str] = {
    OfferKind.DRAW: N_("{name} offers a draw."),
    OfferKind.END: N_("{name} offers to end the game here, scored as agreed."),
    OfferKind.UNDO: N_("{name} asks to take back their last move."),
}
# The headline of the mail that tells an offer's maker the answer; {name} answered it.
OFFER_ANSWERED_HEADLINE: dict[tuple[OfferKind, bool], str] = {
    (OfferKind.DRAW, True): N_("{name} accepted your draw offer."),
    (OfferKind.END, True): N_("{name} accepted your end offer."),
    (OfferKind.UNDO, True): N_("{name} accepted your undo offer."),
    (OfferKind.DRAW, False): N_("{name} declined your draw offer."),
    (OfferKind.END, False): N_("{name} declined your end offer."),
    (OfferKind.UNDO, False): N_("{name} declined your undo offer."),
}
# A pending offer in a game's mail, as its maker reads it...
YOU_OFFER: dict[OfferKind, str] = {
    OfferKind.DRAW: N_("You offer a draw."),
    OfferKind.END: N_("You offer an agreed end."),
    OfferKind.UNDO: N_("You offer a take-back."),
}
# ... and as the other player does, with the commands that answer it.
OPPONENT_OFFERS: dict[OfferKind, str] = {
    # TRANSLATORS: 'accept' and 'decline' are commands: keep them in English
    OfferKind.DRAW: N_("Your opponent offers a draw; reply 'accept' or 'decline'."),
    # TRANSLATORS: 'accept' and 'decline' are commands: keep them in English
    OfferKind.END: N_(
        "Your opponent offers to end the game here, scored as agreed; reply 'accept' or 'decline'."
    ),
    # TRANSLATORS: 'accept' and 'decline' are commands: keep them in English
    OfferKind.UNDO: N_(
        "Your opponent asks to take back their last move; reply 'accept' or 'decline'."
    ),
}
# The answer to a mail's offer command (draw, end, undo): the offer stands (YOU_OFFERED), or
# it was settled at once: it met the other player's same offer, so accepted it
# (YOU_ACCEPTED), or it needed no answer from anyone (GRANTED).
YOU_OFFERED: dict[OfferKind, str] = {
    OfferKind.DRAW: N_("You offered: draw."),
    OfferKind.END: N_("You offered: end."),
    OfferKind.UNDO: N_("You offered: undo."),
}
YOU_ACCEPTED: dict[OfferKind, str] = {
    OfferKind.DRAW: N_("You accepted the draw."),
    OfferKind.END: N_("You accepted the end."),
    OfferKind.UNDO: N_("You accepted the undo."),
}
GRANTED: dict[OfferKind, str] = {
    OfferKind.DRAW: N_("Granted: draw."),
    OfferKind.END: N_("Granted: end."),
    OfferKind.UNDO: N_("Granted: undo."),
}


def offer_asks(kind: OfferKind | str) -> str:
    """What an offer of ``kind`` asks, after its maker's name, in the current language.

    >>> offer_asks("draw")
    'offers a draw'
    """
    return _(OFFER_ASKS[OfferKind(kind)])


def offer_noun(kind: OfferKind | str) -> str:
    """An offer of ``kind`` as a noun ("a draw"), in the current language."""
    return _(OFFER_NOUNS[OfferKind(kind)])
