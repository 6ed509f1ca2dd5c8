"""pytest without xdist (``-p no:xdist``): pyproject.toml's addopts still pass xdist's
``--numprocesses`` and ``--dist``, which pytest would refuse as unknown. Here they are
accepted and ignored, and the run is the one process asked for. This file sits at the
checkout's top so that pytest reads it for any path, tests/ or the doctests of the packages.
"""


def pytest_addoption(parser, pluginmanager):
    if not pluginmanager.has_plugin("xdist"):
        group = parser.getgroup("xdist", "distributed testing: off (-p no:xdist)")
        group.addoption("--numprocesses", default=None, help="ignored: xdist is off")
        group.addoption("--dist", default="no", help="ignored: xdist is off")
