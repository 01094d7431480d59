"""The report's explorer in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, which ``make test`` installs where it can) through the explorer of a
run of 60 KGS games, checked against the run's own tables."""

import re
import shutil
from urllib.parse import parse_qs

import numpy as np
import pandas as pd
import pytest

from rulelab.analysis.inputs import analysable_games
from rulelab.report.build import build_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(  # before the run is scored: a skip costs nothing
    not (CHROMIUM and DRIVER),
    reason="headless Chromium is absent: make chromium installs Debian's chromium and chromium-driver")]

FAST = dict(n_boot=40, examples_per_cause=1)


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is absent: pip install -e '.[test]'")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,800"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chrome = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=options)
    yield chrome
    chrome.quit()


@pytest.fixture(scope="module")
def run(kgs_run):
    """60 KGS games scored, and their report (with its explorer) beside the run."""
    build_report(kgs_run, kgs_run.parent / "report", **FAST)
    return kgs_run.parent


def opened(browser, run, view: str = ""):
    browser.get((run / "report" / "explorer.html").as_uri() + view)
    browser.execute_script("window.dispatchEvent(new HashChangeEvent('hashchange'))")
    return browser


def shown_games(browser) -> list[str]:
    return [row.get_attribute("data-game") for row in browser.find_elements("css selector", "#rows tr")]


def choose(browser, name: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", f"filter-{name}")).select_by_value(value)


def test_the_explorer_loads_without_console_errors(browser, run):
    opened(browser, run)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    assert len(shown_games(browser)) == len(pd.read_csv(run / "report" / "attribution.csv"))


def test_filtering_a_pair_shows_the_rows_attribution_holds_for_it(browser, run):
    attribution = pd.read_csv(run / "report" / "attribution.csv")
    standard = attribution[attribution["komi_basis"] == "standard"]
    pairs = standard.groupby(["ruleset_a", "ruleset_b"]).size().sort_values(ascending=False, kind="stable")
    a, b = pairs.index[0]
    opened(browser, run, "#")
    choose(browser, "basis", "standard")
    choose(browser, "pair", "–".join(sorted((a, b))))
    expected = standard.loc[(standard["ruleset_a"] == a) & (standard["ruleset_b"] == b), "game_id"]
    assert sorted(shown_games(browser)) == sorted(expected)


def test_a_game_shows_the_stored_dead_stones_every_count_and_replays_to_its_end(browser, run, tmp_path):
    games = pd.read_parquet(run / "run" / "games.parquet").drop_duplicates("game_id").set_index("game_id")
    life = pd.read_parquet(run / "run" / "life.parquet").drop_duplicates("game_id").set_index("game_id")
    scores = pd.read_parquet(run / "run" / "scores.parquet")
    attribution = pd.read_csv(run / "report" / "attribution.csv")
    standard = attribution[attribution["komi_basis"] == "standard"]
    dead = life["dead"].map(lambda mask: np.frombuffer(mask, dtype=np.int8).sum())
    row = standard[standard["game_id"].map(dead) > 0].iloc[0]
    opened(browser, run, "#basis=standard")
    browser.find_element("css selector", f'#rows tr[data-game="{row.game_id}"]').click()
    ruleset = browser.find_element("id", "ruleset").get_attribute("value")
    verdict = life.loc[row.game_id]
    under = {case["ruleset"]: case["dead"] for case in verdict["status_dead"]}
    mask = np.frombuffer(under.get(ruleset, verdict["dead"]), dtype=np.int8)
    marked = {int(m.get_attribute("data-point")) for m in browser.find_elements("css selector", "#board .dead-mark")}
    assert marked == set(np.flatnonzero(mask).tolist()) and marked

    rows = scores[(scores["game_id"] == row.game_id) & (scores["komi_source"] == "standard")]
    rows = rows.drop_duplicates("ruleset").set_index("ruleset")
    cells = browser.find_elements("css selector", "#counts td[data-ruleset]")
    assert {cell.get_attribute("data-ruleset") for cell in cells} == set(rows.index)
    for cell in cells:
        stored = rows.at[cell.get_attribute("data-ruleset"), cell.get_attribute("data-field")]
        shown = cell.text
        assert shown == stored if isinstance(stored, str) else float(shown) == pytest.approx(float(stored))

    slider = browser.find_element("id", "move")
    final = "".join(map(str, np.frombuffer(games.at[row.game_id, "board"], dtype=np.int8)))
    for position in (0, int(slider.get_attribute("max"))):
        browser.execute_script("arguments[0].value = arguments[1];"
                               "arguments[0].dispatchEvent(new Event('input'))", slider, position)
        stones = browser.find_element("id", "board").get_attribute("data-stones")
        assert stones == (final if position else "0" * len(final))
    browser.save_screenshot(str(tmp_path / "explorer-game.png"))  # kept as the test's artefact
    assert (tmp_path / "explorer-game.png").stat().st_size > 0


def test_every_rate_the_report_links_shows_as_many_rows_as_it_counts(browser, run):
    page = (run / "report" / "index.html").read_text(encoding="utf-8")
    views = sorted(set(re.findall(r'href="explorer\.html(#[^"]+)"', page)))
    assert any("view=games" in view for view in views) and any("view=games" not in view for view in views)
    for view in views:
        stated = int(parse_qs(view[1:].replace("&amp;", "&"))["n"][0])
        opened(browser, run, view.replace("&amp;", "&"))
        assert len(shown_games(browser)) == stated, view


def test_the_games_view_lists_every_game_and_opens_a_board_where_it_has_one(browser, run, tmp_path):
    games = pd.read_parquet(run / "run" / "games.parquet")
    attribution = pd.read_csv(run / "report" / "attribution.csv")
    opened(browser, run, "#view=games")
    shown = shown_games(browser)
    assert sorted(shown) == sorted(analysable_games(games)["game_id"])
    browser.save_screenshot(str(tmp_path / "explorer-games.png"))  # kept as the test's artefact
    assert (tmp_path / "explorer-games.png").stat().st_size > 0
    without = next(game for game in shown if game not in set(attribution["game_id"]))
    browser.find_element("css selector", f'#rows tr[data-game="{without}"]').click()
    assert browser.find_elements("id", "no-board") and not browser.find_elements("id", "board")
    assert browser.find_element("css selector", '#facts td[data-field="game_id"]').text == without
    divergent = attribution["game_id"].iloc[0]
    browser.find_element("css selector", f'#rows tr[data-game="{divergent}"]').click()
    assert browser.find_elements("id", "board") and not browser.find_elements("id", "no-board")


def test_the_slider_replays_every_game_of_the_explorer_to_its_stored_final_board(browser, run):
    opened(browser, run)
    differ = browser.execute_script(
        "return Object.entries(DATA.games).filter(([, game]) =>"
        " replay(game, game.moves.length / 4).join('') !== game.board).map(([id]) => id)")
    games = browser.execute_script("return Object.keys(DATA.games).length")
    assert games > 0 and differ == []
