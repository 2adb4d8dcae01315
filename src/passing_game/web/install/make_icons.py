"""Draw the installed page's icons (``static/icon-192.png``, ``static/icon-512.png``).

The same standing domino as ``static/icon.svg`` (a 6 over a 3, upright) on
the table's felt, with room around it for the masks a phone puts on icons.
Run after changing the drawing, and commit the PNGs:

    .venv/bin/python -m passing_game.web.install.make_icons

Pillow comes with the test extra (through matplotlib); serving never needs it.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).parent.parent / "static"
SIZES = (192, 512)
FELT, TILE, INK = (31, 92, 58), (248, 244, 232), (34, 34, 34)


def draw(size: int, path: Path) -> None:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (size, size), FELT)
    pen = ImageDraw.Draw(image)
    u = size / 32  # the SVG's units
    width, height = 11 * u, 22 * u  # inside the middle 80 %, the mask's safe zone
    left, top = (size - width) / 2, (size - height) / 2
    pen.rounded_rectangle(
        (left, top, left + width, top + height),
        radius=2.2 * u,
        fill=TILE,
        outline=INK,
        width=max(1, round(u / 2)),
    )
    middle = top + height / 2
    pen.line((left + u, middle, left + width - u, middle), fill=INK, width=max(1, round(u / 2)))
    r = 1.2 * u
    half = height / 2

    def pip(x: float, y: float) -> None:
        pen.ellipse((x - r, y - r, x + r, y + r), fill=INK)

    for row in (0.22, 0.5, 0.78):  # six above the line
        for col in (0.3, 0.7):
            pip(left + width * col, top + half * row)
    for at in (0.22, 0.5, 0.78):  # three below, corner to corner
        pip(left + width * (0.3 + 0.4 * (at - 0.22) / 0.56), middle + half * at)
    image.save(path, optimize=True)


def main() -> None:
    for size in SIZES:
        draw(size, STATIC / f"icon-{size}.png")


if __name__ == "__main__":
    main()
