"""Reports: one self-contained HTML file with embedded plots, checked in headless Chromium;
a PNG figure."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from .helpers import COIN, FAILING, LOADED, run

np = pytest.importorskip("numpy", reason="reports need the sim extra (pip install -e '.[sim]')")
pytest.importorskip("matplotlib", reason="reports need the sim extra (pip install -e '.[sim]')")
from matplotlib.image import imread  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# matplotlib's first two default colours: bars and lines of the plots (text and tables are grey)
PLOT_COLOURS = np.array([[31, 119, 180], [255, 127, 14]]) / 255


def _plot_pixels(image: "np.ndarray") -> "np.ndarray":
    rgb = image[..., :3]
    near = [np.all(np.abs(rgb - c) < 0.06, axis=-1) for c in PLOT_COLOURS]
    return near[0] | near[1]


def _bands(rows: "np.ndarray", gap: int = 40) -> list[tuple[int, int]]:
    """Runs of rows with plot pixels, split where `gap` rows in a row have none."""
    bands, start, last = [], None, None
    for y in np.flatnonzero(rows):
        if start is None:
            start = y
        elif y - last > gap:
            bands.append((start, last + 1))
            start = y
        last = y
    if start is not None:
        bands.append((start, last + 1))
    return bands


def _screenshot(html_file, png_file, tmp_path) -> "np.ndarray":
    profile = tmp_path / f"profile-{png_file.stem}"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={profile}", "--hide-scrollbars", "--window-size=1300,1500",
                    f"--screenshot={png_file}", html_file.as_uri()],
                   capture_output=True, timeout=120, check=True)
    return imread(png_file)


def _report(tmp_path, *args: str):
    path = tmp_path / "report.html"
    r = run("compare", COIN, "--variant", LOADED, "--games", "150", "--report", path, *args)
    assert r.exit_code == 0, r.stderr
    return path


def test_html_report_embeds_its_plots_and_tables(tmp_path):
    text = _report(tmp_path).read_text(encoding="utf-8")
    sources = re.findall(r'<img[^>]*src="([^"]+)"', text)
    assert len(sources) == 3 and all(s.startswith("data:image/png;base64,") for s in sources)
    assert not re.search(r'(src|href)="(https?:|file:|/)', text)  # nothing to fetch
    assert re.search(r"P1 win rate \d+ % → 9\d %, difference \+\d+ points", text)
    assert "significant" in text and "Rule coverage" in text
    assert "never_heard" in text  # the dead trigger is named


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (apt-get install chromium)")
def test_html_report_shows_its_plots_in_a_browser(tmp_path):
    report = _report(tmp_path)
    shot = _screenshot(report, tmp_path / "report.png", tmp_path)
    # the same page without its images: what text and tables alone look like
    bare = tmp_path / "bare.html"
    bare.write_text(re.sub(r"<img[^>]*>", "", report.read_text(encoding="utf-8")), encoding="utf-8")
    control = _screenshot(bare, tmp_path / "bare.png", tmp_path)
    assert _plot_pixels(control).sum() < 50
    plots = _plot_pixels(shot)
    bands = _bands(plots.any(axis=1))
    assert len(bands) >= 2, bands  # two rows of plots
    half = plots.shape[1] // 2
    first, second = plots[bands[0][0]:bands[0][1]], plots[bands[1][0]:bands[1][1]]
    # win rates and scores side by side in the first row, game lengths below: each is drawn
    assert first[:, :half].sum() > 2000 and first[:, half:].sum() > 2000
    assert second[:, :half].sum() > 2000


def test_png_report_is_one_figure(tmp_path):
    path = tmp_path / "figure.png"
    r = run("simulate", FAILING, "--games", "60", "--report", path)
    assert r.exit_code == 1  # some games fail; the report is still written
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = imread(path)
    assert image.shape[1] > image.shape[0] * 2  # three plots in a row
    assert _plot_pixels(image).sum() > 2000


def test_a_report_of_another_kind_is_a_usage_error(tmp_path):
    r = run("simulate", COIN, "--games", "5", "--report", tmp_path / "r.pdf")
    assert r.exit_code == 2 and "FILE.html or FILE.png" in r.stderr


def test_simulate_html_report_has_agents_and_failed_games(tmp_path):
    path = tmp_path / "sim.html"
    r = run("simulate", FAILING, "--games", "60", "--agents", "first,random", "--report", path)
    assert r.exit_code == 1
    text = path.read_text(encoding="utf-8")
    assert len(re.findall(r'<img[^>]*src="data:image/png;base64,', text)) == 3
    assert "<th>agent</th>" in text and "Failed games" in text
    assert "rulebook play " in text and "while scoring: ZeroDivisionError" in text
