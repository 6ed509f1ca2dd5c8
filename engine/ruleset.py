"""Rulesets: a preset name plus optional overrides, separate from any position.

A ruleset is written ``name`` or ``name:key=value,key=value``; a bare key means ``key=yes``.

>>> rules = Ruleset.parse("wari:captures=2-4")
>>> rules.captures
(2, 4)
>>> Ruleset.parse("kalah:pits=4,seeds=3").describe().splitlines()[0]
'kalah: pits=4, seeds=3'

The meaning of every parameter is in ``PARAMETERS`` (and ``mancala rules NAME`` prints it);
the presets and every key are described in ``docs/rules.md``, with the sources they follow.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.errors import RulesetError, excerpt
from engine.inputs import TooLong, normalise, whole_number
from engine.translation import N_, _

MAX_SPEC = 300  # characters in a ruleset string: every key set once fits in about 250
# South's pit letters in sowing order (North's are the same lowercase): the widest ruleset,
# Togyz Kumalak's 9 pits, uses them all. Surfaces build their move patterns from PIT_CLASS.
PIT_LETTERS = "ABCDEFGHI"
MAX_PITS = len(PIT_LETTERS)
PIT_CLASS = f"A-{PIT_LETTERS[-1]}a-{PIT_LETTERS[-1].lower()}"  # for a regex [...]: any pit


@dataclass(frozen=True)
class Parameter:
    key: str
    meaning: str  # marked with N_: shown as _(param.meaning)
    choices: tuple[str, ...] = ()  # for choice parameters
    bounds: tuple[int, int] | None = None  # for whole numbers
    kind: str = "choice"  # choice | bool | int | counts

    @property
    def whole_range(self) -> tuple[int, int]:
        """The (lowest, highest) value of a whole-number parameter."""
        if self.bounds is None:
            raise TypeError(f"{self.key} is not a whole-number parameter")
        return self.bounds

    def allowed(self) -> str:
        """The values the parameter takes, in the current language (the values themselves,
        ``yes``, ``none``, ``relay``..., are the ruleset's notation and stay as they are)."""
        if self.kind == "bool":
            # TRANSLATORS: "yes" and "no" are values a ruleset is written with: keep them
            return _("yes or no")
        if self.kind == "int":
            lo, hi = self.whole_range
            return _("a whole number from {lo} to {hi}").format(lo=lo, hi=hi)
        if self.kind == "counts":
            # TRANSLATORS: "none" is a value a ruleset is written with: keep it
            return _("counts joined by '-', e.g. 2-3 or 2-3-4 (1 to 9), or none")
        return ", ".join(self.choices)


PARAMETERS: dict[str, Parameter] = {
    p.key: p
    for p in [
        Parameter("pits", N_("pits per row"), bounds=(1, 8), kind="int"),
        Parameter("seeds", N_("seeds per pit at the start"), bounds=(1, 12), kind="int"),
        Parameter(
            "first", N_("who moves first (random: a coin flip)"), ("south", "north", "random")
        ),
        Parameter(
            "stores",
            N_("sowing drops a seed in the mover's own store (never the opponent's)"),
            kind="bool",
        ),
        Parameter("skip_origin", N_("a lap of sowing skips the pit it started from"), kind="bool"),
        Parameter(
            "sow_origin",
            N_(
                "the first seed goes back into the pit it was lifted from (a pit of one seed "
                "moves it on)"
            ),
            kind="bool",
        ),
        Parameter(
            "choose", N_("own row only, or any non-empty play pit (symmetric)"), ("own", "any")
        ),
        Parameter(
            "laps",
            N_(
                "single, or relay: a last seed landing in a pit that was not empty "
                "picks that pit up and sows on"
            ),
            ("single", "relay"),
        ),
        Parameter("replay", N_("the last seed in your own store gives another turn"), kind="bool"),
        Parameter(
            "empty_capture",
            N_(
                "last seed in an empty play pit of your row (either row when "
                "choose=any) takes the opposite pit: to your store, across into the capturing "
                "pit, or none"
            ),
            ("none", "store", "across"),
        ),
        Parameter(
            "capture_needs_opposite",
            N_("that capture happens only when the opposite pit holds seeds"),
            kind="bool",
        ),
        Parameter(
            "capture_takes_sower", N_("the capturing seed goes to the store too"), kind="bool"
        ),
        Parameter(
            "empty_means",
            N_(
                "a pit is empty if it held nothing before the last seed fell "
                "(before_drop) or before the move began (before_move)"
            ),
            ("before_drop", "before_move"),
        ),
        Parameter(
            "captures",
            N_(
                "counts that capture (last seed makes the pit hold one of them), "
                "chaining backwards over preceding pits"
            ),
            kind="counts",
        ),
        Parameter("capture_side", N_("where count captures may happen"), ("opponent", "either")),
        Parameter(
            "even_capture",
            N_("a last seed making an even count in an opponent's pit takes that pit (alone)"),
            kind="bool",
        ),
        Parameter(
            "tuzdyk",
            N_(
                "a last seed making 3 in an opponent's pit makes it the mover's tuzdyk, once a "
                "game (never their last pit, nor the number of their tuzdyk): what falls in it "
                "is the mover's"
            ),
            kind="bool",
        ),
        Parameter(
            "grand_slam",
            N_(
                "a count capture that would take all the opponent's seeds: "
                "take_all (game over, mover takes what is left), no_capture (legal, captures "
                "nothing), forbidden (illegal unless every move is one; then it captures "
                "nothing), capture (captures as usual)"
            ),
            ("take_all", "no_capture", "forbidden", "capture"),
        ),
        Parameter(
            "must_feed",
            N_(
                "when the opponent's row is empty: your sowing must reach it "
                "(reach), they must hold seeds after your move (leave), or no duty (off)"
            ),
            ("reach", "leave", "off"),
        ),
        Parameter(
            "cannot_feed",
            N_("who takes the seeds left when the mover cannot feed"),
            ("mover", "opponent", "owners"),
        ),
        Parameter(
            "end",
            N_(
                "the game ends when the player to move has no move (mover_empty), "
                "when a row is empty after a move (either_empty), or when every play pit is "
                "empty (all_empty)"
            ),
            ("mover_empty", "either_empty", "all_empty"),
        ),
        Parameter(
            "leftover",
            N_(
                "at the end, seeds still on the board go to the owner of the row, to nobody (none), "
                "or to the owner only when the player to move has no move (no_move)"
            ),
            ("owner", "none", "no_move"),
        ),
        Parameter(
            "majority",
            N_("the game ends at once when a player holds more than half of all seeds"),
            kind="bool",
        ),
        Parameter(
            "cycle",
            N_(
                "a repeated position (or an agreed end) scores as a draw, splits the "
                "seeds left equally, or gives each row to its owner"
            ),
            ("draw", "split", "owners"),
        ),
        Parameter(
            "direction",
            N_(
                "ccw, or choice: the mover picks the direction each move "
                "(E or E> counter-clockwise, E< clockwise)"
            ),
            ("ccw", "choice"),
        ),
    ]
}

# The elf.org applet's own words (000), accepted for every preset. Each expands to parameters.
APPLET_WORDS = {
    "symmetric": "any pit may be chosen and the game ends when all play pits are empty",
    "asymmetric": "own pits only, and the game ends when the player to move has no move",
    "capture": "across, home or none: where an empty-pit capture goes",
    "continue": "relay sowing (laps=relay)",
    "stones": "seeds per pit (the applet offers 3 to 6)",
}


def _words_to_params(key: str, value: str) -> dict[str, str]:
    """Translate one applet word into engine parameters (values already normalised)."""
    if key in ("symmetric", "asymmetric"):
        symmetric = (value == "yes") == (key == "symmetric")
        return (
            {"choose": "any", "end": "all_empty"}
            if symmetric
            else {"choose": "own", "end": "mover_empty"}
        )
    if key == "capture":
        if value not in ("across", "home", "none"):
            raise RulesetError(
                # TRANSLATORS: "capture", "across", "home" and "none" are ruleset words: keep them
                _("capture={value} is not allowed; capture takes across, home or none").format(
                    value=excerpt(value)
                )
            )
        return {"empty_capture": {"home": "store"}.get(value, value)}
    if key == "continue":
        return {"laps": "relay" if value == "yes" else "single"}
    return {"seeds": value}  # stones


_BOOL_WORDS = {
    "yes": True,
    "y": True,
    "true": True,
    "on": True,
    "1": True,
    "no": False,
    "n": False,
    "false": False,
    "off": False,
    "0": False,
}


@dataclass(frozen=True)
class Preset:
    name: str
    summary: str  # marked with N_: shown as _(preset.summary)
    source: str  # where a name, marked with N_: shown as _(preset.source)
    params: dict[str, Any]
    aliases: tuple[str, ...] = ()
    seed_bounds: tuple[int, int] | None = None  # a narrower range than the generic one
    pit_bounds: tuple[int, int] | None = None  # another range than the generic one
    kazans: bool = False  # captures are shown as stores at the row ends, as on its board


_BASE: dict[str, Any] = dict(
    pits=6,
    seeds=4,
    first="south",
    stores=True,
    skip_origin=False,
    sow_origin=False,
    choose="own",
    laps="single",
    replay=True,
    empty_capture="store",
    capture_needs_opposite=False,
    capture_takes_sower=True,
    empty_means="before_drop",
    captures=(),
    capture_side="opponent",
    even_capture=False,
    tuzdyk=False,
    grand_slam="capture",
    must_feed="off",
    cannot_feed="owners",
    end="either_empty",
    leftover="owner",
    majority=False,
    cycle="owners",
    direction="ccw",
)
_WARI = dict(
    _BASE,
    stores=False,
    skip_origin=True,
    replay=False,
    empty_capture="none",
    captures=(2, 3),
    grand_slam="take_all",
    must_feed="reach",
    cannot_feed="mover",
    end="mover_empty",
    majority=True,
    cycle="draw",
)
# Togyz Kumalak as the World Togyz Kumalak Federation plays it (docs/rules.md): no seed is sown
# into a kazan, the first seed goes back into the lifted pit, even counts and tuzdyks capture.
_TOGYZ = dict(
    _BASE,
    pits=9,
    seeds=9,
    stores=False,
    sow_origin=True,
    replay=False,
    empty_capture="none",
    even_capture=True,
    tuzdyk=True,
    end="mover_empty",
    leftover="no_move",
    majority=True,
    cycle="owners",
)
_APPLET = dict(
    _BASE,
    seeds=3,
    empty_capture="across",
    capture_needs_opposite=True,
    capture_takes_sower=False,
    end="mover_empty",
    cycle="owners",
)

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        Preset(
            "kalah",
            N_(
                "Kalah, 2x6 with stores: replay on your store, capture from an empty pit "
                "of your row (001)"
            ),
            "001",
            dict(_BASE),
            aliases=("mancala",),
        ),
        Preset(
            "kalah-nosweep",
            N_(
                "The 2x6 classroom rules: empty means empty before the move, "
                "only the stores count at the end, coin flip for first (002)"
            ),
            "002",
            dict(_BASE, empty_means="before_move", leftover="none", first="random", cycle="draw"),
        ),
        Preset(
            "wari",
            N_(
                "Wari, 2x6 without stores: capture by 2's and 3's, must feed, grand slam "
                "takes all (003)"
            ),
            "003",
            _WARI,
            aliases=("awale", "awari"),
        ),
        Preset(
            "oware",
            N_(
                "Oware Abapa, tournament rules: as wari, but a grand slam captures "
                "nothing and each keeps their row at the end"
            ),
            N_("the Oware Abapa tournament rules"),
            dict(_WARI, grand_slam="no_capture", cannot_feed="owners", cycle="owners"),
        ),
        Preset(
            "al-manqala",
            N_(
                "Al-manqala, 2x7 with 7 beads: capture 2's and 4's on either row, "
                "must leave the opponent beads, 50 wins (004)"
            ),
            "004",
            dict(
                _WARI,
                pits=7,
                seeds=7,
                skip_origin=False,
                captures=(2, 4),
                capture_side="either",
                grand_slam="capture",
                must_feed="leave",
                cannot_feed="opponent",
                cycle="split",
            ),
        ),
        Preset(
            "mankala",
            N_(
                "The elf.org applet's Mankala: asymmetric, replay, capture across, "
                "3 stones, South first (000)"
            ),
            "000",
            dict(_APPLET),
            seed_bounds=(3, 6),
        ),
        Preset(
            "manbula",
            N_(
                "The elf.org applet's Manbula: symmetric, replay, continue, no capture, 4 stones (000)"
            ),
            "000",
            dict(
                _APPLET, seeds=4, choose="any", end="all_empty", laps="relay", empty_capture="none"
            ),
            seed_bounds=(3, 6),
        ),
        Preset(
            "togyz-kumalak",
            N_(
                "Togyz Kumalak, 2x9 with 9 stones and kazans: the first stone back into its pit, "
                "capture even counts, one tuzdyk each, more than 81 wins"
            ),
            N_("the World Togyz Kumalak Federation's rules"),
            dict(_TOGYZ),
            aliases=("togyzkumalak", "togyzqumalaq", "toguz-korgool"),
            pit_bounds=(1, 9),
            kazans=True,
        ),
        Preset(
            "bestemshe",
            N_(
                "Bestemshe, Togyz Kumalak's small form as PlayStrategy plays it: 2x5 with 5 "
                "stones, no tuzdyk, more than 25 wins"
            ),
            "PlayStrategy (Mind-Sports-Games/strategygames)",
            dict(_TOGYZ, pits=5, seeds=5, tuzdyk=False),
            pit_bounds=(1, 9),
            kazans=True,
        ),
    ]
}
_ALIASES = {alias: p.name for p in PRESETS.values() for alias in p.aliases}


@dataclass(frozen=True)
class Ruleset:
    """The rules of one game: a preset plus overrides. Immutable and hashable.

    >>> Ruleset.parse("oware").grand_slam
    'no_capture'
    >>> str(Ruleset.parse("awale:captures=2-3-4"))
    'wari:captures=2-3-4'
    """

    name: str = "kalah"
    pits: int = 6
    seeds: int = 4
    first: str = "south"
    stores: bool = True
    skip_origin: bool = False
    sow_origin: bool = False
    choose: str = "own"
    laps: str = "single"
    replay: bool = True
    empty_capture: str = "store"
    capture_needs_opposite: bool = False
    capture_takes_sower: bool = True
    empty_means: str = "before_drop"
    captures: tuple[int, ...] = ()
    capture_side: str = "opponent"
    even_capture: bool = False
    tuzdyk: bool = False
    grand_slam: str = "capture"
    must_feed: str = "off"
    cannot_feed: str = "owners"
    end: str = "either_empty"
    leftover: str = "owner"
    majority: bool = False
    cycle: str = "owners"
    direction: str = "ccw"

    # -- construction -------------------------------------------------------------------------

    @staticmethod
    def presets() -> dict[str, str]:
        """{preset name: one-line description, in the current language}; aliases are
        resolved by ``parse``."""
        return {name: _(p.summary) for name, p in PRESETS.items()}

    @staticmethod
    def aliases() -> dict[str, str]:
        return dict(_ALIASES)

    @classmethod
    def parse(cls, text: str) -> Ruleset:
        """Read ``name`` or ``name:key=value,...``; raise RulesetError naming what is wrong."""
        if not isinstance(text, str) or not text.strip():
            raise RulesetError(
                _("no ruleset given; choose one of: {names}").format(names=", ".join(PRESETS))
            )
        try:
            text = normalise(text, MAX_SPEC, _("a ruleset"))
        except TooLong as err:
            raise RulesetError(
                # TRANSLATORS: "name:key=value,..." is how a ruleset is written: keep it
                _("{problem}; write name:key=value,...").format(problem=err)
            ) from None
        name, _colon, options = text.strip().partition(":")
        name = name.strip().lower()
        name = _ALIASES.get(name, name)
        if name not in PRESETS:
            raise RulesetError(
                _("unknown ruleset '{name}'; choose one of: {names} (aliases: {aliases})").format(
                    name=excerpt(name),
                    names=", ".join(PRESETS),
                    aliases=", ".join(f"{a}={n}" for a, n in _ALIASES.items()),
                )
            )
        preset = PRESETS[name]
        values = dict(preset.params)
        for item in filter(None, (part.strip() for part in options.split(","))):
            key, sep, value = item.partition("=")
            key, value = key.strip().lower().replace("-", "_"), value.strip().lower()
            if not sep:
                value = "yes"
            elif not value:
                raise RulesetError(_("'{item}' has no value after '='").format(item=excerpt(item)))
            if key in APPLET_WORDS:
                value = (
                    _normalise_bool(key, value)
                    if key in ("symmetric", "asymmetric", "continue")
                    else value
                )
                expanded = _words_to_params(key, value)
            elif key in PARAMETERS:
                expanded = {key: value}
            else:
                raise RulesetError(
                    _("unknown key '{key}'; keys are: {keys} (and the applet's {words})").format(
                        key=excerpt(key), keys=", ".join(PARAMETERS), words=", ".join(APPLET_WORDS)
                    )
                )
            for k, v in expanded.items():
                values[k] = _convert(PARAMETERS[k], v, preset)
        rules = cls(name=name, **values)
        rules._check()
        return rules

    def _check(self) -> None:
        preset = PRESETS[self.name]
        lo, hi = preset.seed_bounds or PARAMETERS["seeds"].whole_range
        if not lo <= self.seeds <= hi:
            raise RulesetError(
                _("seeds={seeds} is out of range for {name}; allowed: {lo} to {hi}").format(
                    seeds=self.seeds, name=self.name, lo=lo, hi=hi
                )
            )
        lo, hi = preset.pit_bounds or PARAMETERS["pits"].whole_range
        if not lo <= self.pits <= hi:
            raise RulesetError(
                _("pits={pits} is out of range for {name}; allowed: {lo} to {hi}").format(
                    pits=self.pits, name=self.name, lo=lo, hi=hi
                )
            )
        if self.sow_origin and self.skip_origin:
            raise RulesetError(
                _(
                    "sow_origin puts the first seed back into the pit and skip_origin skips it; "
                    "set one of them to no"
                )
            )
        if self.sow_origin and self.laps == "relay":
            raise RulesetError(_("sow_origin is offered with single laps only; set laps=single"))
        if self.even_capture and self.captures:
            raise RulesetError(
                _("even_capture overlaps the count captures; set captures=none or even_capture=no")
            )
        if self.tuzdyk and self.choose == "any":
            raise RulesetError(
                _(
                    "a tuzdyk is a pit of the opponent's row that nobody sows from, which needs "
                    "choose=own"
                )
            )
        if self.empty_capture == "across" and self.capture_takes_sower:
            raise RulesetError(
                _(
                    "empty_capture=across keeps the capturing seed in its pit, so "
                    "capture_takes_sower must be no"
                )
            )
        if 1 in self.captures and self.empty_capture != "none":
            raise RulesetError(
                _(
                    "captures containing 1 overlaps the empty-pit capture; set "
                    "empty_capture=none or drop 1 from captures"
                )
            )
        if not (
            self.stores
            or self.captures
            or self.empty_capture == "store"
            or self.even_capture
            or self.tuzdyk
        ):
            raise RulesetError(
                _(
                    "with stores=no, empty_capture other than store and no captures, "
                    "no seed ever leaves the board and a game could only end by "
                    "repetition; set stores=yes, empty_capture=store, captures or even_capture"
                )
            )
        if self.replay and not self.stores:
            raise RulesetError(_("replay needs stores=yes (the last seed must land in a store)"))

    # -- text ---------------------------------------------------------------------------------

    def overrides(self) -> dict[str, Any]:
        """The parameters that differ from the preset's defaults."""
        base = PRESETS[self.name].params
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name in PARAMETERS and getattr(self, f.name) != base[f.name]
        }

    def __str__(self) -> str:
        over = self.overrides()
        if not over:
            return self.name
        return self.name + ":" + ",".join(f"{k}={format_value(v)}" for k, v in over.items())

    def describe(self) -> str:
        """Several lines: the ruleset string, its summary and every parameter's value. The
        first line is the ruleset as written; the words after it are in the current
        language, the keys and values as a ruleset writes them."""
        preset = PRESETS[self.name]
        over = self.overrides()
        head = self.name + (
            ": " + ", ".join(f"{k}={format_value(v)}" for k, v in over.items()) if over else ""
        )
        lines = [
            head,
            _(preset.summary) + ".",
            _("Source: {source}.").format(source=_(preset.source)),
        ]
        if preset.aliases:
            lines.append(_("Also called: {aliases}.").format(aliases=", ".join(preset.aliases)))
        # TRANSLATORS: "name:key=value,..." is how a ruleset is written: keep it
        lines.append(_("Parameters (change with name:key=value,...):"))
        for key, param in PARAMETERS.items():
            lines.append(
                f"  {key}={format_value(getattr(self, key))}: {_(param.meaning)} "
                f"[{param.allowed()}]"
            )
        return "\n".join(lines)

    # -- derived facts ------------------------------------------------------------------------

    @property
    def total_seeds(self) -> int:
        return 2 * self.pits * self.seeds

    @property
    def letters(self) -> str:
        return PIT_LETTERS[: self.pits]

    @property
    def shows_stores(self) -> bool:
        """Whether boards show the stores at the row ends (rulesets with stores, and the
        kazans of Togyz Kumalak and Bestemshe, where no seed is sown into them), rather than
        a line of captured counts."""
        return self.stores or PRESETS[self.name].kazans


def _normalise_bool(key: str, value: str) -> str:
    if value not in _BOOL_WORDS:
        raise RulesetError(
            # TRANSLATORS: "yes" and "no" are values a ruleset is written with: keep them
            _("{key}={value} is not allowed; {key} takes yes or no").format(
                key=key, value=excerpt(value)
            )
        )
    return "yes" if _BOOL_WORDS[value] else "no"


def _convert(param: Parameter, value: str, preset: Preset) -> Any:
    key = param.key
    if param.kind == "bool":
        return _normalise_bool(key, value) == "yes"
    if param.kind == "int":
        lo, hi = param.whole_range
        if key == "seeds" and preset.seed_bounds:
            lo, hi = preset.seed_bounds
        elif key == "pits" and preset.pit_bounds:
            lo, hi = preset.pit_bounds
        try:
            return whole_number(value, key, lo, hi)
        except ValueError:
            raise RulesetError(
                _(
                    "{key}={value} is not allowed; {key} takes a whole number from {lo} to {hi}"
                ).format(key=key, value=excerpt(value), lo=lo, hi=hi)
            ) from None
    if param.kind == "counts":
        if value in ("none", "no", "off"):
            return ()
        try:
            return tuple(sorted({whole_number(p, "", 1, 9) for p in value.split("-")}))
        except ValueError:
            raise RulesetError(
                _("{key}={value} is not allowed; {key} takes {allowed}").format(
                    key=key, value=excerpt(value), allowed=param.allowed()
                )
            ) from None
    if value not in param.choices:
        raise RulesetError(
            _("{key}={value} is not allowed; {key} takes {allowed}").format(
                key=key, value=excerpt(value), allowed=param.allowed()
            )
        )
    return value


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "-".join(map(str, value)) if value else "none"
    return str(value)
