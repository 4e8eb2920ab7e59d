"""The wheel ships every package of the source tree, under the one top-level name, and the
README's install line gives a working command."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
from pathlib import Path

import pytest
from helpers import env_without_coverage
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_for_the_wheel() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    mapping = setuptools["package-dir"]
    found = set()
    for name, folder in mapping.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            if "__pycache__" in init.parts:
                continue
            rel = init.parent.relative_to(base)
            found.add(".".join([name, *rel.parts]) if rel.parts else name)
    assert found <= listed, f"not shipped: {sorted(found - listed)}"
    assert all(name.startswith("scopa_net") for name in listed)


def test_the_pythons_named_agree_with_requires_python_and_the_readme() -> None:
    """The classifiers name every Python from requires-python's oldest on, with no gap, and
    the README's install line names the same oldest one."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    oldest = project["requires-python"].removeprefix(">=")
    prefix = "Programming Language :: Python :: 3."
    minors = sorted(
        int(c.removeprefix(prefix)) for c in project["classifiers"] if c.startswith(prefix)
    )
    assert minors
    assert f"3.{minors[0]}" == oldest
    assert minors == list(range(minors[0], minors[-1] + 1))
    assert f"(Python {oldest} or newer" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_install_line_gives_a_working_command(tmp_path: Path) -> None:
    """The README's ``python -m pip install . && scopa-net play``, short of a terminal: a copy
    of the source tree builds into a wheel, the wheel installs (its dependencies are this
    environment's), and the installed ``scopa-net`` runs from the installed package, not from
    the source tree: its help, a demo round through the core, host-free, and the rules
    document the client's ``rules`` reads."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "RULES.md"):
        shutil.copy(ROOT / name, source / name)
    unwanted = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("scopa_net", "server", "client", "commands"):
        shutil.copytree(ROOT / folder, source / folder, ignore=unwanted)
    pip = [sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check"]
    run = functools.partial(
        subprocess.run, capture_output=True, text=True, timeout=300, env=env_without_coverage()
    )
    built = run([*pip, "wheel", "--no-deps", "--wheel-dir", str(tmp_path / "dist"), str(source)])
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("scopa_net-*.whl")
    site = tmp_path / "site"
    installed = run([*pip, "install", "--no-deps", "--target", str(site), str(wheel)])
    assert installed.returncode == 0, installed.stderr
    # -S: no .pth files, so not this checkout's editable install; the dependencies come from
    # this environment's site-packages, put on the path by hand.
    libraries = os.pathsep.join([str(site), sysconfig.get_paths()["purelib"]])
    env = {**env_without_coverage(), "PYTHONPATH": libraries}
    run = functools.partial(run, cwd=tmp_path)  # not the checkout, whose folders would shadow
    command = [sys.executable, "-S", str(site / "bin" / "scopa-net")]
    where = run([*command[:2], "-c", "import scopa_net.commands as c; print(c.__file__)"], env=env)
    assert where.stdout.strip().startswith(str(site)), where
    helped = run([*command, "--help"], env=env)
    assert helped.returncode == 0, helped.stderr
    assert "play" in helped.stdout
    demo = run([*command, "demo", "--rounds", "1", "--seed", "1"], env=env)
    assert demo.returncode == 0, demo.stderr
    assert "Round 1, dealer seat" in demo.stdout
    # The one file the package reads at run time (the client's `rules`), from the wheel.
    rulebook = "from scopa_net.client.rulebook import read_document; print(read_document())"
    rules = run([*command[:2], "-c", rulebook], env=env)
    assert rules.returncode == 0, rules.stderr
    assert rules.stdout == (ROOT / "RULES.md").read_text(encoding="utf-8") + "\n"


def test_the_sdist_holds_every_file_the_repository_keeps(tmp_path: Path) -> None:
    """A packager builds from the sdist and runs the tests there: it held the tests without
    their helpers and data (tests/helpers.py, tests/data/...), and neither RULES.md,
    protocol.md, the JavaScript verifier nor the benchmarks. Built from the files git keeps,
    with the build backend pyproject.toml asks for, it holds each of them (but the dotfiles
    of the repository and of CI)."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, text=True, check=False
    )
    if listed.returncode:
        pytest.skip(f"not a git checkout: {listed.stderr.strip()}")
    kept = {name for name in listed.stdout.split("\0") if name}
    source = tmp_path / "source"
    for name in kept:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, source / name)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    backend = tmp_path / "backend"
    run = functools.partial(
        subprocess.run, capture_output=True, text=True, timeout=300, env=env_without_coverage()
    )
    pip = [sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check"]
    got = run([*pip, "install", "--target", str(backend), *config["build-system"]["requires"]])
    assert got.returncode == 0, got.stderr
    build = "import sys, setuptools.build_meta as b; print(b.build_sdist(sys.argv[1]))"
    env = {**env_without_coverage(), "PYTHONPATH": str(backend)}
    built = run([sys.executable, "-c", build, str(tmp_path / "dist")], cwd=source, env=env)
    assert built.returncode == 0, built.stderr
    with tarfile.open(tmp_path / "dist" / built.stdout.split()[-1]) as sdist:
        held = {name.partition("/")[2] for name in sdist.getnames()}
    missing = {name for name in kept if not name.startswith(".")} - held
    assert not missing, f"not in the sdist: {sorted(missing)}"


OLDEST_RUN = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
import nacl, trio
from scopa_net.fair.blind.simulate import simulate_blind_match
from scopa_net.fair.blind.verifier import verify_any
from scopa_net.rules import RuleSet
played = simulate_blind_match(RuleSet.of(2, target=1), 1, max_rounds=1)
print(nacl.__version__, trio.__version__, verify_any(played.transcripts[0]).rounds[0].ok)
"""


def test_the_oldest_releases_it_accepts_run_it(tmp_path: Path) -> None:
    """pyproject.toml accepted pynacl 1.5, but a blind deal calls
    crypto_core_ed25519_from_uniform, which PyNaCl has only since 1.6: where 1.5 was installed
    already (a distribution's package), pip kept it, and `scopa-net play` stopped at its start
    on an AttributeError. With every dependency at the oldest release pyproject.toml accepts,
    every module imports and a blind round deals and verifies."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    oldest = [need.replace(">=", "==") for need in config["project"]["dependencies"]]
    assert all("==" in need for need in oldest), "each dependency names its oldest release"
    target = tmp_path / "oldest"
    pip = [sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check"]
    run = functools.partial(
        subprocess.run, capture_output=True, text=True, timeout=300, env=env_without_coverage()
    )
    got = run([*pip, "install", "--target", str(target), *oldest])
    assert got.returncode == 0, got.stderr
    modules = []
    for name, folder in config["tool"]["setuptools"]["package-dir"].items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] != "__main__" and "__pycache__" not in parts:
                modules.append(".".join([name, *(p for p in parts if p != "__init__")]))
    # The oldest releases come first on the path, before this environment's own.
    env = {**env_without_coverage(), "PYTHONPATH": str(target)}
    done = run([sys.executable, "-c", OLDEST_RUN, *sorted(modules)], env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    nacl, trio, verified = done.stdout.split()
    used = {"pynacl": nacl, "trio": trio}  # the oldest, not this environment's
    for need in map(Requirement, oldest):
        if need.name in used:
            assert need.specifier.contains(used[need.name]), (need, used)
    assert verified == "True"


def test_python_m_scopa_net_in_the_checkout_without_an_editable_install_says_what_to_do() -> None:
    """After the README's `python -m pip install .`, `python -m scopa_net` run in the checkout
    imports the checkout's scopa_net/ folder (the current folder comes first), which holds the
    core only: it ended in a ModuleNotFoundError traceback for scopa_net.commands."""
    # -S: no .pth files, so not this checkout's editable install; the dependencies come from
    # this environment's site-packages, put on the path by hand.
    env = {**env_without_coverage(), "PYTHONPATH": sysconfig.get_paths()["purelib"]}
    done = subprocess.run(
        [sys.executable, "-S", "-m", "scopa_net", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert (done.returncode, done.stdout) == (5, "")
    assert done.stderr == (
        f"scopa-net: `python -m scopa_net` found {ROOT / 'scopa_net'}, a checkout's core alone "
        "(commands/, client/ and server/ sit beside it): run `scopa-net`, or run it from another "
        "folder, or install with `python -m pip install -e .`\n"
    )
