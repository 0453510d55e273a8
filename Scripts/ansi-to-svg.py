"""Renders a tmux capture (`tmux capture-pane -e -p`, ANSI colours) as an SVG of monospaced text.

Usage: python3 Scripts/ansi-to-svg.py [-h | --help] CAPTURE.txt OUT.svg
"""

import html
import re
import sys

BASE = ["#1d1f21", "#cc6666", "#8c9440", "#de935f", "#5f819d", "#85678f", "#5e8d87", "#c5c8c6",
        "#666666", "#ff3334", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#ffffff"]
FOREGROUND, BACKGROUND = "#e0e0e0", "#1d1f21"


def color256(n: int) -> str:
    if n < 16:
        return BASE[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (levels[n // 36], levels[(n // 6) % 6], levels[n % 6])
    gray = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (gray, gray, gray)


def render(lines: list[str]) -> str:
    cell_w, cell_h = 9, 18
    width = max(len(re.sub(r"\x1b\[[0-9;]*m", "", line)) for line in lines) * cell_w + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{len(lines) * cell_h + 20}">',
           f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>',
           '<g font-family="DejaVu Sans Mono, monospace" font-size="15" xml:space="preserve">']
    for row, line in enumerate(lines):
        fg, bg, bold, reverse, col = FOREGROUND, None, False, False, 0
        y = 10 + row * cell_h
        for part in re.split(r"(\x1b\[[0-9;]*m)", line):
            if part.startswith("\x1b["):
                codes = [int(c) if c else 0 for c in part[2:-1].split(";")]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        fg, bg, bold, reverse = FOREGROUND, None, False, False
                    elif c == 1:
                        bold = True
                    elif c == 7:
                        reverse = True
                    elif c == 22:
                        bold = False
                    elif c == 27:
                        reverse = False
                    elif 30 <= c <= 37:
                        fg = BASE[c - 30]
                    elif 90 <= c <= 97:
                        fg = BASE[c - 90 + 8]
                    elif 40 <= c <= 47:
                        bg = BASE[c - 40]
                    elif 100 <= c <= 107:
                        bg = BASE[c - 100 + 8]
                    elif c == 39:
                        fg = FOREGROUND
                    elif c == 49:
                        bg = None
                    elif c in (38, 48) and i + 1 < len(codes):
                        if codes[i + 1] == 5 and i + 2 < len(codes):
                            value = color256(codes[i + 2])
                            i += 2
                        elif codes[i + 1] == 2 and i + 4 < len(codes):
                            value = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                            i += 4
                        else:
                            value = None
                        if c == 38 and value:
                            fg = value
                        elif value:
                            bg = value
                    i += 1
                continue
            if not part:
                continue
            front, back = (bg or BACKGROUND, fg) if reverse else (fg, bg)
            x = 10 + col * cell_w
            if back:
                out.append(f'<rect x="{x}" y="{y}" width="{len(part) * cell_w}" height="{cell_h}" fill="{back}"/>')
            weight = ' font-weight="bold"' if bold else ""
            out.append(f'<text x="{x}" y="{y + 14}" fill="{front}"{weight}>{html.escape(part)}</text>')
            col += len(part)
    out.append("</g></svg>")
    return "\n".join(out)


USAGE = """usage: python3 Scripts/ansi-to-svg.py [-h | --help] CAPTURE.txt OUT.svg

Renders a tmux capture (`tmux capture-pane -e -p`, ANSI colours) as an SVG of monospaced text.
"""


def main(arguments: list[str]) -> int:
    if any(argument in ("-h", "--help") for argument in arguments):
        sys.stdout.write(USAGE)
        return 0
    options = [argument for argument in arguments if argument.startswith("-") and argument != "-"]
    if options:
        sys.stderr.write(f"ansi-to-svg.py: error: unknown option `{options[0]}`\n" + USAGE)
        return 2
    if len(arguments) != 2:
        sys.stderr.write("ansi-to-svg.py: error: expected CAPTURE.txt and OUT.svg\n" + USAGE)
        return 2
    with open(arguments[0], encoding="utf-8", errors="replace") as capture:
        text = capture.read().rstrip("\n").split("\n")
    with open(arguments[1], "w", encoding="utf-8") as svg:
        svg.write(render(text))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
