"""A Neovim screen capture (tests/e2e/neovim.lua's neovim-<name>.json: rows of cells with their text and colours)
as a PNG, drawn cell by cell in DejaVu Sans Mono: a screenshot of the terminal Neovim would draw on.

    python tests/e2e/screen_png.py CAPTURE.json OUT.png"""
import json
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path("/usr/share/fonts/truetype/dejavu")
SIZE = 15


def render(capture: Path, out: Path) -> Path:
    screen = json.loads(capture.read_text(encoding="utf-8"))
    normal_fg, normal_bg = screen["normal"]
    regular = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), SIZE)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSansMono-Bold.ttf"), SIZE)
    italic = ImageFont.truetype(str(FONTS / "DejaVuSansMono-Oblique.ttf"), SIZE)
    cw = round(regular.getlength("M"))
    ch = SIZE + 5
    cells = screen["cells"]
    img = Image.new("RGB", (cw * len(cells[0]) + 16, ch * len(cells) + 16), normal_bg or "#14161b")
    draw = ImageDraw.Draw(img)
    for r, row in enumerate(cells):
        for c, (text, fg, bg, flags) in enumerate(row):
            x, y = 8 + c * cw, 8 + r * ch
            draw.rectangle([x, y, x + cw - 1, y + ch - 1], fill=bg or normal_bg or "#14161b")
            if text.strip():
                font = bold if "b" in flags else italic if "i" in flags else regular
                draw.text((x, y + 2), text, font=font, fill=fg or normal_fg or "#e0e2ea")
            if "s" in flags:
                draw.line([x, y + ch // 2, x + cw, y + ch // 2], fill=fg or normal_fg, width=1)
            if "u" in flags:
                draw.line([x, y + ch - 2, x + cw, y + ch - 2], fill=fg or normal_fg, width=1)
    img.save(out, optimize=True)
    return out


if __name__ == "__main__":
    render(Path(sys.argv[1]), Path(sys.argv[2]))
