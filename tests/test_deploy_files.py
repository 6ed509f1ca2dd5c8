"""The reference deploys in deploy/, checked as far as this machine can: the systemd unit by
systemd itself (``systemd-analyze verify``, where installed), the compose file parsed, the
container file read for what an operator relies on, and .env.example against the settings
the program really reads."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parents[1]
DEPLOY = ROOT / "deploy"


def verify_unit(text: str, tmp_path: Path, name: str = "mancala-discord.service") -> str:
    """systemd-analyze's complaints about a unit (empty when it is clean), with the units it
    starts after beside it. Their /opt/mancala paths point at this checkout's ``mancala``, so
    its commands are checked."""
    mancala = str(Path(sys.executable).with_name("mancala"))
    for unit_name in {name, "mancala-discord.service"}:
        source = text if unit_name == name else (DEPLOY / unit_name).read_text()
        (tmp_path / unit_name).write_text(source.replace("/opt/mancala/bin/mancala", mancala))
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(tmp_path / name)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return (done.stdout + done.stderr).strip() + ("" if done.returncode == 0 else " [failed]")


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (apt-get install systemd)",
)
def test_the_systemd_unit_passes_systemd_analyze(tmp_path):
    unit = (DEPLOY / "mancala-discord.service").read_text()
    assert verify_unit(unit, tmp_path) == ""
    broken = unit.replace("Type=notify", "Type=notifyy")
    assert "Failed to parse service type" in verify_unit(broken, tmp_path)  # it can fail


def unit_settings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in (DEPLOY / "mancala-discord.service").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_unit_checks_first_stops_on_bad_settings_and_has_a_watchdog():
    unit = unit_settings()
    assert any("health --before-start" in command for command in unit["ExecStartPre"])
    assert "78" in unit["RestartPreventExitStatus"][0].split()  # EX_CONFIG: never a loop
    assert unit["Type"] == ["notify"] and int(unit["WatchdogSec"][0]) > 3 * 30
    assert any("NUMBA_CACHE_DIR=/var/lib/mancala" in env for env in unit["Environment"])


def test_the_compose_file_keeps_data_and_cache_in_volumes_and_gives_up_on_bad_settings():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    service = compose["services"]["mancala"]
    mounts = dict(volume.split(":")[::-1] for volume in service["volumes"])
    assert set(mounts) == {"/data", "/cache"}
    assert set(mounts.values()) <= set(compose["volumes"])  # named volumes, declared
    assert re.fullmatch(r"on-failure:\d", service["restart"])
    assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).is_file()
    database = compose["services"]["db"]  # PostgreSQL, only with --profile postgres
    assert database["profiles"] == ["postgres"] and database["image"].startswith(
        "docker.io/library/postgres:"
    )
    assert database["volumes"][0].split(":")[0] in compose["volumes"]


def test_the_container_file_runs_unprivileged_warm_and_with_a_healthcheck():
    text = (DEPLOY / "Containerfile").read_text()
    lines = [
        line.strip()
        for line in text.replace("\\\n", " ").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    instructions = [line.split()[0] for line in lines]
    env = " ".join(line for line in lines if line.startswith("ENV"))
    assert "MANCALA_DB=/data/" in env and "NUMBA_CACHE_DIR=/cache/" in env
    assert instructions.index("USER") < lines.index("RUN mancala warm-up")  # cache as the user
    assert any(line.startswith("USER") and "root" not in line for line in lines)
    assert any(line.startswith("VOLUME") and "/data" in line and "/cache" in line for line in lines)
    healthcheck = next(line for line in lines if line.startswith("HEALTHCHECK"))
    assert '"mancala", "health"' in healthcheck
    for line in lines:
        if line.startswith("COPY"):
            *sources, _ = line.split()[1:]
            assert all((ROOT / source).exists() for source in sources), line


def test_every_setting_in_env_example_is_one_the_program_reads():
    example = (DEPLOY / ".env.example").read_text()
    names = re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, re.M)
    assert {"DISCORD_TOKEN", "MANCALA_DB", "LOG_LEVEL", "METRICS_PORT"} <= set(names)
    code = "\n".join(path.read_text() for path in (ROOT / "bot").rglob("*.py"))
    code += (ROOT / "bot" / "ai_runtime" / "kernel_cache.py").read_text()
    unread = [name for name in names if f'"{name}"' not in code and name != "NUMBA_CACHE_DIR"]
    assert unread == []
    # a directory here crash-looped the container once: it stays commented out
    assert not re.search(r"^MANCALA_DB=", example, re.M)
