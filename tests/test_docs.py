"""The rules reference in docs/ names every key and every preset the engine knows, with the
values each preset takes, so the document cannot fall behind the code unnoticed."""

from pathlib import Path

from engine.ruleset import PARAMETERS, PRESETS, format_value

RULES_DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def test_every_key_is_documented_with_its_values():
    text = RULES_DOC.read_text()
    for key, param in PARAMETERS.items():
        row = next((line for line in text.splitlines() if line.startswith(f"| `{key}` |")), None)
        assert row is not None, f"docs/rules.md has no row for {key}"
        for choice in param.choices:
            assert choice in row, f"{key}'s value {choice} is not in docs/rules.md"


def test_the_preset_table_matches_the_engine():
    lines = RULES_DOC.read_text().splitlines()
    header = next(line for line in lines if line.startswith("| key | kalah |"))
    names = [cell.strip() for cell in header.strip("|").split("|")][1:]
    assert names == list(PRESETS)
    for key in PARAMETERS:
        rows = [line for line in lines if line.startswith(f"| `{key}` |")]
        table_row = rows[-1]  # the keys table comes first, the presets table last
        cells = [cell.strip() for cell in table_row.strip("|").split("|")][1:]
        assert cells == [format_value(PRESETS[name].params[key]) for name in names], key
