"""A real, private Postfix for the tests, set up as deploy/postfix.md's "B. Pipe mode" says,
started from the operating system's own package (Debian's ``postfix``) in a temporary
directory on a free loopback port, and stopped at the end.

The instance has its own configuration, queue and data directories (``postfix -c DIR``), so
the machine's own Postfix, if any, is never touched, and it listens on 127.0.0.1 only, never
on port 25. Mail to the bot's address ``mancala@bot.test`` (and its plus addresses) goes
through the ``mancala`` pipe transport to ``mancala mail --pipe``, run as the unprivileged
user ``mancala`` in a working directory holding its ``.env``; the bot sends its replies back
through the same Postfix (``MANCALA_MAIL_RELAY``), which delivers them to the players'
Maildirs (a virtual mailbox domain, ``players.test``) for the tests to read.

The bot's user must be able to run the venv's Python and read this checkout. Where the venv
comes from a Python that user cannot read (a pyenv under /root), the pipe runs the bot
through a thin venv made from the system's Python of the same version, which loads the test
venv's packages (``_bridge_venv``).

Postfix runs only as root. Without it (or as another user, or where the bot's user cannot
read the checkout) the tests that need it skip, saying why; under ``CI=true`` that skip is a
failure instead, as for PostgreSQL (tests/postgres_server.py), so CI can never pass without
running them.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import smtplib
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import TypeVar

import pytest

HOW_TO_GET = (
    "Postfix is not installed: apt-get install postfix (Debian/Ubuntu; .ci/run does it), "
    "and run the tests as root, which Postfix needs"
)
BOT_DOMAIN = "bot.test"
BOT_ADDRESS = f"mancala@{BOT_DOMAIN}"
PLAYERS_DOMAIN = "players.test"
BOT_USER = "mancala"  # deploy/postfix.md's user=: unprivileged, as pipe(8) insists
SECRET = "postfix-e2e-secret"
DEADLINE = 30.0  # seconds to wait for one delivery: generous for a busy two-core machine

T = TypeVar("T")


class Unavailable(Exception):
    """This machine cannot run the tests' Postfix setup; the message says why."""


def unavailable(reason: str):
    """Skip locally; fail under CI, where a skipped Postfix test would hide a gap."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the Postfix tests: {reason}")
    pytest.skip(reason)


def missing() -> str | None:
    """Why a private Postfix cannot run here, or None when it can."""
    if shutil.which("postfix", path="/usr/sbin:/sbin:" + os.environ.get("PATH", "")) is None:
        return HOW_TO_GET
    if os.geteuid() != 0:
        return "Postfix's master process runs only as root: run the Postfix tests as root"
    if not _mancala_command().exists():
        return f"no {_mancala_command()}: install the project in its venv (pip install -e .)"
    return None


def _mancala_command() -> Path:
    """The venv's ``mancala``, as deploy/postfix.md's argv= names it."""
    return Path(sys.executable).with_name("mancala")


def _runs_as_bot_user(python: Path) -> str | None:
    """Why ``python`` cannot import the bot as the bot's user, or None when it can."""
    done = subprocess.run(
        ["runuser", "-u", BOT_USER, "--", str(python), "-c", "import bot.cli"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd="/",
    )
    return None if done.returncode == 0 else (done.stderr.strip() or f"status {done.returncode}")


def _bridge_venv(folder: Path) -> Path:
    """A thin venv in ``folder`` from the system's Python of this version, loading the test
    venv's packages; the path of its ``mancala``.

    Needed where the venv's own Python lives where an unprivileged user cannot read it (a
    pyenv under /root): pipe(8) runs the bot as such a user. deploy/postfix.md tells operators
    to make the venv from a Python that user can run; this is that, for a test machine."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    system_python = next(
        (Path(d) / version for d in ("/usr/bin", "/usr/local/bin") if (Path(d) / version).exists()),
        None,
    )
    if system_python is None:
        raise Unavailable(
            f"user {BOT_USER} cannot run {sys.executable}, and there is no /usr/bin/{version} "
            "to run the bot with instead"
        )
    subprocess.run(
        [str(system_python), "-m", "venv", "--without-pip", str(folder)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    site_packages = Path(sysconfig.get_paths()["purelib"])
    [bridge_site] = folder.glob("lib/python*/site-packages")
    # an import line in a .pth runs at startup: addsitedir also reads the venv's own .pth
    # files, among them the editable install's, which finds this checkout
    (bridge_site / "mancala-test-venv.pth").write_text(
        f"import site; site.addsitedir({str(site_packages)!r})\n"
    )
    command = folder / "bin" / "mancala"
    original = _mancala_command().read_text().split("\n", 1)[1]
    command.write_text(f"#!{folder / 'bin' / 'python'}\n{original}")
    command.chmod(0o755)
    return command


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _bot_user() -> pwd.struct_passwd:
    """The unprivileged user the pipe runs the bot as; created (a system user without a home
    or a shell) when the machine has none."""
    with contextlib.suppress(KeyError):
        return pwd.getpwnam(BOT_USER)
    # (a test run beside this one may create it at the same moment: then useradd fails, and
    # the user is there all the same)
    done = subprocess.run(
        [
            "useradd",
            "--system",
            "--user-group",
            "--no-create-home",
            "--home-dir",
            "/nonexistent",
            "--shell",
            "/usr/sbin/nologin",
            BOT_USER,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    try:
        return pwd.getpwnam(BOT_USER)
    except KeyError:
        raise Unavailable(f"cannot create the user {BOT_USER}: {done.stderr.strip()}") from None


# The services of Debian's master.cf that this instance uses, none chrooted (a chroot would
# need copies of /etc files in the queue directory); {smtp} and {mancala} are filled in.
MASTER_CF = """\
{smtp}
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
local     unix  -       n       n       -       -       local
virtual   unix  -       n       n       -       -       virtual
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
{mancala}
"""


class PostfixServer:
    """One private Postfix instance; ``start()`` it, ``stop()`` it."""

    def __init__(self, players: tuple[str, ...] = ("ann", "bob", "cat")):
        self.root = Path(tempfile.mkdtemp(prefix="mancala-postfix-"))
        self.root.chmod(0o755)  # postfix, the bot's user and the mailboxes' user pass through
        self.config = self.root / "config"
        self.queue = self.root / "queue"
        self.data = self.root / "data"
        self.bot_dir = self.root / "bot"  # the pipe's directory=: the bot's .env and database
        self.mailboxes = self.root / "mailboxes"
        self.maillog = self.root / "maillog"
        self.port = free_port()
        self.command = _mancala_command()  # what the pipe runs: argv=
        self.players = players
        self._running = False

    # -- setting up -----------------------------------------------------------------------

    def start(self) -> PostfixServer:
        bot = _bot_user()
        # players' mail is stored as nobody: neither root's nor the bot's to read
        nobody = pwd.getpwnam("nobody")
        for folder in (self.config, self.queue, self.data, self.bot_dir, self.mailboxes):
            folder.mkdir()
        shutil.chown(self.data, "postfix")
        os.chown(self.bot_dir, bot.pw_uid, bot.pw_gid)
        self.bot_dir.chmod(0o700)  # its .env holds the token secret
        os.chown(self.mailboxes, nobody.pw_uid, nobody.pw_gid)
        if _runs_as_bot_user(Path(sys.executable)) is not None:
            self.command = _bridge_venv(self.root / "venv")
            problem = _runs_as_bot_user(self.command.with_name("python"))
            if problem is not None:  # e.g. the checkout is in a home only root may enter
                raise Unavailable(f"user {BOT_USER} cannot import the bot: {problem}")
        self.write_env()
        (self.config / "main.cf").write_text(self._main_cf(nobody))
        (self.config / "master.cf").write_text(
            MASTER_CF.format(
                smtp=f"127.0.0.1:{self.port} inet n - n - - smtpd",
                mancala=self._pipe_transport(),
            )
        )
        # deploy/postfix.md: the bot's address, and with recipient_delimiter its plus
        # addresses, go to the pipe
        (self.config / "transport").write_text(f"{BOT_ADDRESS}    mancala:\n")
        # a trailing slash: Maildir, one file a message
        (self.config / "mailboxes").write_text(
            "".join(
                f"{name}@{PLAYERS_DOMAIN}    {PLAYERS_DOMAIN}/{name}/\n" for name in self.players
            )
        )
        self._postfix_command("postmap", "-c", str(self.config), f"hash:{self.config}/transport")
        self._running = True  # from here on stop() stops it, even if starting fails halfway
        # returns once the master process listens (postfix-script waits: master -w)
        self._postfix_command("postfix", "-c", str(self.config), "start")
        return self

    def _main_cf(self, nobody: pwd.struct_passwd) -> str:
        return f"""\
compatibility_level = 3.6
queue_directory = {self.queue}
data_directory = {self.data}
maillog_file = {self.maillog}
maillog_file_prefixes = {self.root}
myhostname = mx.{BOT_DOMAIN}
mydomain = {BOT_DOMAIN}
myorigin = $mydomain
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
biff = no
alias_maps =
alias_database =
in_flow_delay = 0
# Mail for anywhere else fails at once: no DNS, nothing leaves the machine.
default_transport = error:this test instance delivers nowhere else
relay_transport = $default_transport

# The bot's domain is a local one and the bot's user exists, so Postfix accepts its address.
mydestination = {BOT_DOMAIN}
# deploy/postfix.md, "Plus addresses" and "B. Pipe mode"
recipient_delimiter = +
transport_maps = hash:{self.config}/transport
mancala_destination_recipient_limit = 1

# The players' mailboxes: Maildirs under {self.mailboxes}
virtual_mailbox_domains = {PLAYERS_DOMAIN}
virtual_mailbox_base = {self.mailboxes}
virtual_mailbox_maps = texthash:{self.config}/mailboxes
virtual_uid_maps = static:{nobody.pw_uid}
virtual_gid_maps = static:{nobody.pw_gid}
"""

    def _pipe_transport(self) -> str:
        return (
            "mancala   unix  -       n       n       -       4       pipe\n"
            # null_sender= : a bounce's empty envelope sender reaches the bot as "", which
            # it never answers (pipe's default passes MAILER-DAEMON, which it would)
            f"  flags=Rq null_sender= user={BOT_USER} directory={self.bot_dir}\n"
            f"  argv={self.command} mail --pipe --sender ${{sender}} "
            "--recipient ${recipient}"
        )

    def write_env(self, relay: str | None = None, database: Path | None = None) -> None:
        """The bot's ``.env`` in its working directory: replies go to ``relay`` (default:
        this Postfix), games to ``database`` (default: in that directory)."""
        bot = pwd.getpwnam(BOT_USER)
        relay = relay or f"127.0.0.1:{self.port}"
        database = database or self.bot_dir / "mancala.sqlite3"
        env = self.bot_dir / ".env"
        env.write_text(
            f"MANCALA_MAIL_ADDRESS=Mancala <{BOT_ADDRESS}>\n"
            f"MANCALA_MAIL_RELAY={relay}\n"
            f"MANCALA_MAIL_SECRET={SECRET}\n"
            # the AI's simplest level: a position mail's answer is known in advance, and no
            # search (nor the compile of its kernel) runs in the pipe
            "MANCALA_MAIL_LEVEL=first\n"
            f"MANCALA_DB={database}\n"
        )
        os.chown(env, bot.pw_uid, bot.pw_gid)
        env.chmod(0o600)

    def _postfix_command(self, *argv: str, check: bool = True) -> str:
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, PATH="/usr/sbin:/usr/bin:/sbin:/bin"),
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed: {done.stdout}{done.stderr}")
        return done.stdout

    # -- using it -------------------------------------------------------------------------

    def send(self, raw: bytes, sender: str, recipient: str) -> str:
        """Hand a message to Postfix over SMTP, as a player's mail server would; its queue
        id (from "250 2.0.0 Ok: queued as ...")."""
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as client:
            client.ehlo()
            client.mail(sender)  # smtplib's sendmail would not say the queue id
            client.rcpt(recipient)
            code, reply = client.data(raw)
        assert code == 250, f"Postfix refused the mail: {code} {reply!r}"
        return reply.decode().rpartition(" ")[2]

    def mailbox(self, address: str) -> list[EmailMessage]:
        """Everything delivered to a player's Maildir, oldest first."""
        name = address.partition("@")[0]
        folder = self.mailboxes / PLAYERS_DOMAIN / name / "new"
        if not folder.is_dir():
            return []
        files = sorted(folder.iterdir(), key=lambda path: (path.stat().st_mtime_ns, path.name))
        # (Postfix writes a message in tmp/ and moves it to new/ whole: no half messages)
        parser = BytesParser(policy=policy.default)
        return [parser.parsebytes(path.read_bytes()) for path in files]

    def wait_for_mail(self, address: str, count: int) -> list[EmailMessage]:
        """Wait until ``address`` holds ``count`` messages; return them, oldest first."""

        def arrived() -> list[EmailMessage]:
            box = self.mailbox(address)
            return box if len(box) >= count else []

        return self.wait_until(arrived, f"{count} message(s) in {address}'s mailbox")

    def delivery_to_bot(self, queue_id: str) -> str:
        """The log line of the pipe's attempt to deliver message ``queue_id`` to the bot,
        with its status and what the bot printed (pipe(8) logs it); "" before one."""
        lines = [line for line in self.log().splitlines() if f"{queue_id}: to=<" in line]
        return lines[-1] if lines else ""

    def queue_entries(self) -> list[dict]:
        """The queue as ``postqueue -j`` shows it: one dict per message."""
        output = self._postfix_command("postqueue", "-c", str(self.config), "-j")
        return [json.loads(line) for line in output.splitlines() if line.strip()]

    def wait_until_settled(self, queue_id: str) -> None:
        """Wait until the message ``queue_id`` was delivered and left the queue, and so did
        every reply the bot sent meanwhile (the pipe hands them to Postfix before it exits)."""
        self.wait_until(lambda: f"{queue_id}: removed" in self.log(), f"{queue_id} to go")
        self.wait_until(lambda: not self.queue_entries(), "an empty queue")

    def flush(self) -> None:
        """Retry every deferred message now (``postqueue -f``)."""
        self._postfix_command("postqueue", "-c", str(self.config), "-f")

    def log(self) -> str:
        return self.maillog.read_text(errors="replace") if self.maillog.exists() else ""

    def wait_until(self, check: Callable[[], T], what: str, timeout: float = DEADLINE) -> T:
        """Poll ``check`` until it returns something true; fail after ``timeout`` seconds,
        showing the end of the mail log."""
        deadline = time.monotonic() + timeout
        while True:
            result = check()
            if result:
                return result
            if time.monotonic() > deadline:
                tail = "\n".join(self.log().splitlines()[-30:])
                raise AssertionError(f"timed out waiting for {what}; the mail log ends:\n{tail}")
            time.sleep(0.1)

    # -- tearing down ---------------------------------------------------------------------

    def stop(self) -> None:
        """Stop the master and its children (``postfix stop`` waits for them, and kills
        them after 5 s), then remove everything."""
        try:
            if self._running:
                # unchecked: a start that failed halfway may have left no master to stop
                self._postfix_command("postfix", "-c", str(self.config), "stop", check=False)
                self._running = False
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running_postfix() -> Iterator[PostfixServer]:
    """A started private Postfix, stopped afterwards; skips (fails under CI) without one."""
    reason = missing()
    if reason is not None:
        unavailable(reason)
    server = PostfixServer()
    try:
        try:
            server.start()
        except Unavailable as err:
            unavailable(str(err))
        yield server
    finally:
        server.stop()
