# Wuzi — the two commands are `make demo` and `make test`; both set everything up first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
WUZI   := $(VENV)/bin/wuzi
STAMP  := $(VENV)/.setup-done
PYTEST_ARGS ?=

.PHONY: setup test test-e2e test-bench test-slow demo bench bench-pi lint clean bundle

## setup: create .venv and install Wuzi with its dev tools (`.[dev]`: every group; the screens
##        and the simulators are distributions of their own, display/ and sim/, installed
##        editable beside it), and the
##        Debian packages the tests and the demo need (scripts/system-deps.sh dev: mosquitto,
##        xvfb, a CJK font, chromium for the web page's browser test with the pinned
##        playwright of `.[dev]`); idempotent.
##        For developers and CI: a venue's Pi installs `.[host]` (docs/install.md, `make bundle`)
setup: $(STAMP)
	sh scripts/system-deps.sh dev

$(STAMP): pyproject.toml display/pyproject.toml sim/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]' -e ./display -e ./sim
	$(PY) -c 'import runpy; runpy.run_path("tests/firmware/typecheck_firmware.py")["ensure_stubs"]()'
	touch $@

## test: lint, then the whole suite except the slow marker and the end-to-end final
##       (under 15 minutes)
test: setup lint
	$(PY) -m pytest -q -m "not slow and not bench" --ignore=tests/e2e $(PYTEST_ARGS)

## test-e2e: the whole final with faults and the 2019 open's hall of three events
##           (tests/e2e: about 7 minutes on 2 cores; CI runs it after `make test`). Alone
##           on the machine: their bots play in real time.
test-e2e: setup
	$(PY) -m pytest -q -m "not slow" --basetemp=.e2e-tmp tests/e2e $(PYTEST_ARGS)

## test-bench: the tests that run a benchmark in its quick mode (figures in the right format)
test-bench: setup
	$(PY) -m pytest -q -m bench --ignore=tests/e2e $(PYTEST_ARGS)

## test-slow: only the long runs (differential tests over many positions)
test-slow: setup
	$(PY) -m pytest -q -m slow $(PYTEST_ARGS)

## demo: the simulated final (broker, director, 4 hosts, 24 tables of bots, scoreboard);
##       records, standings and screens in demo-out/. BROKER=mqtt://… uses that broker,
##       SPEED=X divides the time controls (10), SEED=S picks the final (1), FAULTS=1
##       injects faults, HALL=open-2019 plays that hall's three events at once instead,
##       LINKED=1 the 2021 final as a network event (16 halls bridged, every game between
##       two halls, headless). With no display the scoreboard is rendered to PNG files.
SPEED ?= 10
SEED  ?= 1
demo: setup
	$(WUZI) demo --out demo-out --speed $(SPEED) --seed $(SEED) \
	  $(if $(BROKER),--broker $(BROKER)) $(if $(FAULTS),--faults) $(if $(HALL),--hall $(HALL)) \
	  $(if $(LINKED),--linked)

## bench: every area's figures, one `BENCH name value unit` line each. The sources are
##        compiled first, as a wheel's install compiles them on a Pi: an editable install
##        under PYTHONDONTWRITEBYTECODE would otherwise compile every changed module at each
##        start, and the start-up figures would measure the compiler. `make pyc` also keeps
##        the code of the dataclasses' generated methods (wuzi.base.codecache). The `web`
##        area (followers at scale: Mosquitto brokers, 5000 WebSocket viewers, `wuzi web`
##        under 10,000 idle sockets) takes about a minute of the two cores
bench: setup pyc
	$(WUZI) bench

.PHONY: pyc
pyc:
	$(PY) -m compileall -q host display sim
	$(PY) -m wuzi.base.codecache wuzi.display wuzi.sim >/dev/null

## bench-pi: the same on one core (`taskset -c 0`; the processes it starts inherit it), as
##           `wuzi bench --pi`: a Pi 4 is ~4x slower per core, a Pi 5 ~2x (no cpufreq in a
##           container: the scale factors of docs/performance.md stand in for a slower clock).
##           AREAS="host link" runs only those
bench-pi: setup pyc
	taskset -c 0 $(WUZI) bench --pi $(AREAS)

## lint: ruff; mypy --strict on host/, display/ and sim/; the layers and the absence of import
##       cycles (lint-imports, .importlinter); the firmware against the MicroPython rp2 stubs;
##       the deployment files with systemd-analyze verify (scripts/verify_units.py)
CODE := host display sim
lint: setup
	$(VENV)/bin/ruff check $(CODE) tests
	$(VENV)/bin/ruff format --check $(CODE) tests
	$(VENV)/bin/mypy $(CODE)
	$(VENV)/bin/lint-imports
	$(PY) tests/firmware/typecheck_firmware.py
	$(PY) scripts/verify_units.py

## bundle: the offline install bundle for a venue (docs/install.md): build/wuzi-bundle/ and
##         build/wuzi-bundle.tar.gz — Wuzi's wheel, the wheels of `.[host]` for the Pi
##         (linux aarch64, CPython 3.11) and for this machine, requirements.lock with hashes,
##         install.sh. Needs the package index; installing from it does not.
##         EXTRAS=host,screens for a machine that also runs a screen (wuzi-screens and its
##         wheels join); the kit beside the wheels: deploy/, firmware/, boards/, the venue's
##         docs, system-deps.txt, CONTENTS
EXTRAS ?= host
bundle: $(STAMP)
	$(PY) scripts/bundle.py --out build/wuzi-bundle --extras $(EXTRAS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build/wuzi-bundle build/wuzi-bundle.tar.gz

## flash: copy the firmware and a board description to an RP2040 with mpremote
##        make flash PORT=/dev/ttyACM0 [BOARD=sensor-rev-a|sensor-rev-b|clock-rev-a]; the same as
##        `wuzi board flash PORT --board REV`, which also works from the unpacked bundle
BOARD ?= sensor-rev-a
.PHONY: flash
flash: setup
	@test -n "$(PORT)" || { echo "usage: make flash PORT=/dev/ttyACM0 [BOARD=sensor-rev-a]" >&2; exit 2; }
	$(WUZI) board flash $(PORT) --board $(BOARD)
