"""Real-browser tests: headless Chromium from the system's packages, driven by Playwright
(no browser downloads). Screenshots go to out/web/ (gitignored) as artefacts of the run."""
from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from .conftest import POKER, ROOT, TTT, free_port, serve_process, urls_of

CHROMIUM = os.environ.get("RULEBOOK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (or set RULEBOOK_CHROMIUM)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: pip install -e '.[web]'")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = ROOT / "out" / "web"
WAIT = 15_000  # ms: the longest any page may take to catch up


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    procs = []

    def run(args, port=None):
        proc, banner = serve_process(args, tmp_path / "games.sqlite3", port or free_port())
        procs.append(proc)
        return banner

    run.procs = procs
    yield run
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)


def my_turn_or_over(page) -> str:
    page.wait_for_selector("button.option:not([disabled]), #result h2", timeout=WAIT)
    return "over" if page.query_selector("#result h2") else "turn"


def test_a_whole_tic_tac_toe_game_by_clicking(browser, server):
    banner = server([TTT, "--seats", "human,random", "--seed", "2", "--ai-delay", "0.4"])
    page = browser.new_page(viewport={"width": 900, "height": 800})
    page.goto(urls_of(banner)[0])
    clicks = 0
    saw_thinking = False
    while my_turn_or_over(page) == "turn":
        buttons = page.query_selector_all("button.option")
        assert len(buttons) == 9 - 2 * clicks  # every empty cell, and only those
        buttons[len(buttons) // 2].click()
        clicks += 1
        page.wait_for_selector(f'body[data-version="{2 * clicks - 1}"], body[data-version="{2 * clicks}"], '
                               "#result h2", timeout=WAIT)
        saw_thinking = saw_thinking or "thinking" in page.inner_text("#status")
        if clicks == 2:
            page.screenshot(path=str(SHOTS / "tic_tac_toe_mid.png"), full_page=True)
    page.screenshot(path=str(SHOTS / "tic_tac_toe_end.png"), full_page=True)
    result = page.inner_text("#result")
    assert "Game over" in result and "Scores" in result
    marks = [td.inner_text().strip() for td in page.query_selector_all("table.square td")]
    assert len(marks) == 9 and sum(1 for m in marks if m) >= 5  # a game needs at least five marks
    assert saw_thinking  # the page said the AI seat was thinking while it waited
    assert page.inner_text("#live") == "live"


def hand_ids(page, seat: int) -> set:
    return {c.get_attribute("data-piece") for c in page.query_selector_all(f'[data-zone="hand:{seat}"] .card')}


def test_chicago_poker_two_seats_never_see_each_others_hands(browser, server):
    banner = server([POKER, "--seats", "human,human", "--seed", "6"])
    urls = urls_of(banner)
    pages = []
    for seat in (0, 1):
        context = browser.new_context(viewport={"width": 1100, "height": 900})  # separate browsers' worth
        page = context.new_page()
        page.goto(urls[seat])
        page.wait_for_selector("#zones section", timeout=WAIT)
        pages.append(page)
    rng = random.Random(6)
    version = 0
    for turn in range(10):
        for page in pages:
            page.wait_for_selector(f'body[data-version="{version}"]', timeout=WAIT)
        for seat, page in enumerate(pages):
            other = 1 - seat
            backs = page.query_selector_all(f'[data-zone="hand:{other}"] .card')
            assert backs and all("back" in (c.get_attribute("class") or "") for c in backs)
            assert hand_ids(page, other) == {None}  # hidden cards carry no identity
            mine = hand_ids(page, seat) - {None}
            assert mine and not (mine & hand_ids(pages[other], seat))
            html = pages[other].content()
            assert not any(f'data-piece="{i}"' in html for i in mine)
        deciding = [p for p in pages if p.query_selector("button.option")]
        assert deciding, "nobody can decide"
        page = deciding[0]
        if turn == 0:
            waiting = pages[1 - pages.index(page)]
            assert waiting.inner_text("#status").startswith("Waiting for P")
        buttons = page.query_selector_all("button.option")
        buttons[rng.randrange(len(buttons))].click()
        version += 1
    for seat, page in enumerate(pages):
        page.wait_for_selector(f'body[data-version="{version}"]', timeout=WAIT)
        page.screenshot(path=str(SHOTS / f"chicago_poker_P{seat + 1}.png"), full_page=True)


def test_hot_seat_hides_the_table_until_the_player_confirms(browser, server):
    banner = server([POKER, "--seats", "human,human", "--seed", "6", "--hot-seat"])
    url = banner.split("hot-seat table (P1, P2): ")[1].split()[0]
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.goto(url)
    page.wait_for_selector("#cover:not([hidden])", timeout=WAIT)
    assert "Pass the device to P" in page.inner_text("#cover-text")
    assert page.query_selector_all("#zones section") == []  # nothing shown behind the cover
    page.screenshot(path=str(SHOTS / "hot_seat_cover.png"))
    first = page.inner_text("#cover-button")
    page.click("#cover-button")
    page.wait_for_selector("button.option", timeout=WAIT)
    assert page.inner_text("#who").startswith("You are " + first.split()[2].rstrip(":"))
    for _ in range(6):  # play until the other player must decide
        page.query_selector_all("button.option")[0].click()
        page.wait_for_selector("#cover:not([hidden]), button.option:not([disabled])", timeout=WAIT)
        if not page.is_hidden("#cover"):
            break
    assert not page.is_hidden("#cover") and page.query_selector_all("#zones section") == []
    assert page.inner_text("#cover-button") != first


def test_the_replay_viewer_steps_and_switches_seats(browser, server, tmp_path):
    import subprocess
    import sys
    log = tmp_path / "game.json"
    subprocess.run([sys.executable, "-m", "interpreter", "play", POKER, "--seed", "3", "--quiet", "--log", str(log)],
                   check=True, capture_output=True)
    banner = server(["--replay", str(log)])
    url = banner.split("replay: ")[1].split()[0]
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.goto(url)
    page.wait_for_selector('body[data-step="0"]', timeout=WAIT)
    for _ in range(5):
        page.click("#forward")
    page.wait_for_selector('body[data-step="5"]', timeout=WAIT)
    page.click("#back")
    page.wait_for_selector('body[data-step="4"]', timeout=WAIT)
    everyone = len(page.query_selector_all('[data-zone="hand:1"] .card:not(.back)'))
    page.select_option("#viewer", "0")
    page.wait_for_selector('[data-zone="hand:1"] .card.back', timeout=WAIT)
    assert everyone > 0 and page.query_selector_all('[data-zone="hand:1"] .card:not(.back)') == []
    page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)


GALLERY = ["chicago_dry/game.yaml", "dogs_day/game.yaml", "chicago_poker/game.yaml", "dice_town/game.yaml",
           "between_two_cities/game.yaml", "tic_tac_toe/game.yaml", "goofspiel/game.yaml", "kuhn_poker/game.yaml",
           "liars_dice/game.yaml", "../tests/fixtures/table/drop_four.yaml"]


def test_every_game_is_drawn_readably(browser):
    """Each game's page for P1 after some random play, drawn by the browser from the same
    fragments the server sends (screenshots in out/web/gallery/ to look at)."""
    from interpreter import Game
    from interpreter.web.payload import seat_payload
    from interpreter.web.tablelayout import table_layout

    from .conftest import RULES
    css = (ROOT / "interpreter" / "web" / "static" / "style.css").read_text()
    (SHOTS / "gallery").mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    for path in GALLERY:
        game = Game.load(RULES / path)
        S = game.new_game(seed=2)
        rng = random.Random(2)
        for _ in range(30):
            if S.is_terminal():
                break
            p = rng.choice(S.current_players())
            S.apply(p, rng.randrange(len(S.legal_actions(p))))
        data = seat_payload(S, table_layout(game, S.n, S.options), 0, version=0, game_name=game.name, seats=[])
        body = "".join(f'<section id="{k}">{v}</section>' for k, v in data["html"].items())
        page.set_content(f"<html><head><style>{css}</style></head><body><main><h1>{game.name}</h1>"
                         f'<div id="table">{body}</div></main></body></html>')
        page.screenshot(path=str(SHOTS / "gallery" / f"{game.id}.png"), full_page=True)
        if data["html"]["boards"]:
            page.query_selector("#boards").screenshot(path=str(SHOTS / "gallery" / f"{game.id}_boards.png"))
        for svg in page.query_selector_all("svg"):
            box = svg.bounding_box()
            assert box and box["width"] > 50 and box["height"] > 50  # boards are drawn, not collapsed
        assert page.query_selector_all("#zones section, svg, table")


def test_a_page_reconnects_after_the_server_is_killed_and_restarted(browser, server):
    import signal
    port = free_port()
    args = [POKER, "--seats", "human,human", "--seed", "8"]
    urls = urls_of(server(args, port))
    page = browser.new_page(viewport={"width": 900, "height": 700})
    seat = 0
    page.goto(urls[seat])
    page.wait_for_selector("#live.on", timeout=WAIT)
    if not page.query_selector("button.option"):
        seat = 1
        page.goto(urls[seat])
        page.wait_for_selector("#live.on", timeout=WAIT)
    page.query_selector_all("button.option")[0].click()
    page.wait_for_selector('body[data-version="1"]', timeout=WAIT)
    shown = page.inner_text("#zones")
    server.procs[-1].send_signal(signal.SIGKILL)
    server.procs[-1].wait()
    page.wait_for_selector("#live.off", timeout=WAIT)  # the page notices and keeps trying
    banner = server(args, port)
    assert "resumed 1 game" in banner
    page.wait_for_selector("#live.on", timeout=WAIT)  # back, without a reload
    assert page.inner_text("#zones") == shown and page.get_attribute("body", "data-version") == "1"
