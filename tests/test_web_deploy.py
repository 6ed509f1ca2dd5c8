"""The web pages' deploy files: the systemd unit passes systemd itself, the compose service
runs ``mancala web`` on the bot's volumes behind a port only this machine reaches, and the
Caddy example proxies to where ``mancala web`` listens by default."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from bot.web.settings import WebSettings
from tests.test_deploy_files import DEPLOY
from tests.test_deploy_files import verify_unit as verify_deploy_unit


def verify_unit(text: str, tmp_path: Path) -> str:
    """systemd-analyze's complaints about the web unit, beside the bot's unit it starts after."""
    return verify_deploy_unit(text, tmp_path, "mancala-web.service")


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (apt-get install systemd)",
)
def test_the_web_unit_passes_systemd_analyze(tmp_path):
    unit = (DEPLOY / "mancala-web.service").read_text()
    assert verify_unit(unit, tmp_path) == ""
    assert "mancala web --env" in unit and "health --before-start" in unit
    broken = unit.replace("Type=exec", "Type=exek")
    assert "Failed to parse service type" in verify_unit(broken, tmp_path)  # it can fail


def test_the_compose_web_service_shares_the_bots_volumes_and_is_published_locally():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    web, bot = compose["services"]["web"], compose["services"]["mancala"]
    assert web["command"] == ["mancala", "web"] and web["image"] == bot["image"]
    assert sorted(web["volumes"]) == sorted(bot["volumes"])
    assert all(port.startswith("127.0.0.1:") for port in web["ports"])
    settings = WebSettings.from_environ(web["environment"])  # its settings are readable
    assert settings.listen == ("0.0.0.0", 8080) and settings.proxies
    assert "/health" in " ".join(web["healthcheck"]["test"])


def test_the_caddy_example_proxies_to_the_default_listening_address():
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    target = re.search(r"^\s*reverse_proxy\s+(\S+)", caddyfile, re.M)
    host, port = WebSettings().listen
    assert target is not None and target.group(1) == f"{host}:{port}"
