#!/usr/bin/env python3
"""The illustrated deck's art, cut at build time from David Bellot's SVG-cards (npm `svg-cards`, LGPL-2.1).

    python3 tools/card_art.py svg-cards-4.0.2.tgz OUT_DIR

The package is one SVG of 54 cards (1 MB). What the site's 32-card belote deck draws from it, each its own
small file in OUT_DIR (dist/img/cards/, see docs/site.md#the-deck):

- `Jh.svg` ... `Ks.svg`: the twelve court figures, French portraits (the package's "French representation"),
  in their frame with the diagonal rule, cropped to the frame: the page draws the corner indices (the
  reader's letters: R, D, V in French) and the suit marks (in the four-colour deck's colours) itself;
- `suit-s.svg` ... `suit-c.svg`: the four suit shapes, which the page uses as masks for the pips;
- `back.svg`: the back, in the site's red;
- `LICENSE.txt`: the package's licence, with its copyright lines and what was changed.

Minified on the way (ids and the Inkscape styles dropped, each path command absolute or relative whichever is
shorter, the figures' points to half a point on a 169-point card, FIGURE_STEP): the twelve figures weigh about
120 kB compressed, where the package's sheet is 960 kB for its 54 cards.
"""
from __future__ import annotations

import re
import sys
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
HREF = f"{{{XLINK}}}href"

SUITS = {"s": "spade", "h": "heart", "d": "diamond", "c": "club"}
COURTS = {"J": "jack", "Q": "queen", "K": "king"}
BACK_COLOUR = "#8e1b2e"  # the site's own back (web/css/table.css, the simple deck)
# The figures' points to half a point of the 169-point card: the largest figure the site draws is some 80 CSS px
# wide for its 150 points, 240 device pixels at a pixel ratio of 3, where half a step is under half a pixel
# (a tenth of a point would cost 60 kB more, compressed, for no difference one can see).
FIGURE_STEP = 0.5
ART_FILE = "package/svg-cards.svg"
LICENSE_FILE = "package/LICENSE"
AUTHORS_FILE = "package/AUTHORS"


class ArtError(Exception):
    """The package is not the SVG-cards this script knows how to cut."""


def court_files() -> list[str]:
    """The court cards' file stems, as the page names the cards: Jh, Js, ... (tests check dist/ against it)."""
    return [rank + suit for rank in COURTS for suit in SUITS]


# ------------------------------------------------------------------ minifying
NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?")


def short(value: float, places: int) -> str:
    """A number in the fewest characters at `places` decimals: 0.5 -> .5, -0.25 -> -.3, 3.0 -> 3."""
    text = f"{round(value, places):.{places}f}".rstrip("0").rstrip(".") if places else str(round(value))
    if text in ("-0", ""):
        return "0"
    if text.startswith("0."):
        return text[1:]
    if text.startswith("-0."):
        return "-" + text[2:]
    return text


def snap(value: float, step: float) -> str:
    """`value` to the nearest multiple of `step` (0.5, 0.01...), in the fewest characters: snap(2.3, .5) -> 2.5."""
    places = len(repr(step).split(".")[1].rstrip("0")) if "." in repr(step) else 0
    return short(round(value / step) * step, places)


PATH_TOKEN = re.compile(rf"[A-Za-z]|{NUMBER.pattern}")


# How many numbers each path command takes (the site's art draws no arcs) and which of them are x and y.
PATH_ARGUMENTS = {"M": 2, "L": 2, "C": 6, "S": 4, "Q": 4, "T": 2, "H": 1, "V": 1, "Z": 0}


def path_commands(text: str) -> list[tuple[str, list[float]]]:
    """A path's commands in absolute coordinates, one a command (its repeats spelt out): [("M", [x, y]), ...]."""
    tokens = PATH_TOKEN.findall(text)
    commands: list[tuple[str, list[float]]] = []
    x = y = start_x = start_y = 0.0
    i, letter = 0, None
    while i < len(tokens):
        if tokens[i].isalpha():
            letter = tokens[i]
            i += 1
        elif letter is None:
            raise ArtError(f"a path starts with a number: {text[:40]!r}")
        upper = letter.upper()
        if upper not in PATH_ARGUMENTS:
            raise ArtError(f"a path command this script does not read: {letter}")
        count = PATH_ARGUMENTS[upper]
        values = [float(t) for t in tokens[i:i + count]]
        if len(values) < count or any(t.isalpha() for t in tokens[i:i + count]):
            raise ArtError(f"a path's {letter} lacks its numbers: {text[:40]!r}")
        i += count
        if letter.islower() and upper != "Z":
            if upper == "H":
                values = [values[0] + x]
            elif upper == "V":
                values = [values[0] + y]
            else:
                values = [v + (y if k % 2 else x) for k, v in enumerate(values)]
        if upper == "H":
            commands.append(("L", [values[0], y]))
        elif upper == "V":
            commands.append(("L", [x, values[0]]))
        else:
            commands.append((upper, values))
        if upper == "Z":
            x, y = start_x, start_y
        elif upper == "H":
            x = values[0]
        elif upper == "V":
            y = values[0]
        else:
            x, y = values[-2], values[-1]
        if upper == "M":
            start_x, start_y = x, y
            letter = "l" if letter == "m" else "L"  # a move's further pairs are lines
        if upper == "Z" and i < len(tokens) and not tokens[i].isalpha():
            raise ArtError(f"numbers after a close: {text[:40]!r}")
    return commands


def path_data(text: str, step: float) -> str:
    """A path's data in the fewest characters, every number a multiple of `step`: each command absolute or relative, whichever
    is shorter, relative to the point the rounded path has reached (so that no error adds up: every point lands
    within half a step of where it was), a line along an axis as H or V, and a command's letter
    left out where it repeats the one before (but a move's or a close's, which a reader does not repeat)."""
    parts: list[str] = []
    last = None
    x = y = start_x = start_y = 0.0  # where the rounded path is

    def emit(letter: str, values: list[str]) -> None:
        nonlocal last
        if letter != last or letter in "MmZz":
            parts.append(letter)
        parts.extend(values)
        last = letter

    for letter, values in path_commands(text):
        if letter == "Z":
            emit("z", [])
            x, y = start_x, start_y
            continue
        absolute = [snap(v, step) for v in values]
        relative = [snap(v - (y if k % 2 else x), step) for k, v in enumerate(values)]
        new_x, new_y = float(absolute[-2]), float(absolute[-1])
        rel_x, rel_y = x + float(relative[-2]), y + float(relative[-1])
        options = [(letter, absolute, new_x, new_y), (letter.lower(), relative, rel_x, rel_y)]
        if letter == "L" and float(relative[1]) == 0:
            options = [("H", absolute[:1], new_x, y), ("h", relative[:1], rel_x, y)]
        elif letter == "L" and float(relative[0]) == 0:
            options = [("V", absolute[1:], x, new_y), ("v", relative[1:], x, rel_y)]
        written, chosen, x, y = min(options, key=lambda o: len(" ".join(o[1])) + (o[0] != last))
        emit(written, chosen)
        if letter == "M":
            start_x, start_y = x, y
            last = "l" if written == "m" else "L"  # a move's further pairs are lines: one may follow unlettered
    return numbers(" ".join(parts), step)


def numbers(text: str, step: float) -> str:
    """Every number in a path, a list of points or a transform to a multiple of `step`; separators kept only where
    needed."""
    out = NUMBER.sub(lambda m: f" {snap(float(m.group(0)), step)} ", text)
    out = re.sub(r"\s*,\s*|\s+", " ", out).strip()
    out = re.sub(r" ?([A-Za-z]) ?", r"\1", out)  # no space around a path command
    out = re.sub(r" ?([()]) ?", r"\1", out)
    out = re.sub(r" (-)", r"\1", out)  # a minus sign separates numbers on its own
    out = re.sub(r"(\.\d+) (\.)", r"\1\2", out)  # .5 .3 -> .5.3
    return out


STYLE_ATTRIBUTES = ("fill", "stroke", "stroke-width", "fill-rule", "opacity", "fill-opacity")


def clean(node: ET.Element, step: float) -> None:
    """In place: no ids, styles as attributes (the few that draw), xlink:href as href, the numbers of paths and
    points to multiples of `step`, of positions and sizes to a tenth of it, of transforms to 0.0001."""
    for child in node.iter():
        attributes = dict(child.attrib)
        child.attrib.clear()
        style = attributes.pop("style", "")
        for item in style.split(";"):
            name, _, value = item.partition(":")
            if name.strip() in STYLE_ATTRIBUTES and value.strip() != "inherit":
                attributes[name.strip()] = value.strip()
        attributes.pop("id", None)
        for name, value in attributes.items():
            if name == HREF:
                child.set("href", value)
            elif name == "d":
                child.set(name, path_data(value, step))
            elif name == "points":
                child.set(name, numbers(value, step))
            elif name == "transform":
                child.set(name, numbers(value, 0.0001))
            elif name in ("x", "y", "width", "height", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry",
                          "stroke-width") and NUMBER.fullmatch(value):
                child.set(name, snap(float(value), step / 10))
            else:
                child.set(name, value)
        if child.tag == f"{{{SVG}}}use":
            for name in ("x", "y", "width", "height"):
                if child.get(name) in ("0", None) or name in ("width", "height"):
                    child.attrib.pop(name, None)


def text_of(root: ET.Element) -> str:
    """The document as compact text, with the SVG namespace as the default one."""
    ET.register_namespace("", SVG)
    text = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return text.replace(" />", "/>")


# ------------------------------------------------------------------ the package's sheet
class Sheet:
    """The package's SVG: its defs by id."""

    def __init__(self, text: str):
        self.root = ET.fromstring(text)
        self.by_id = {node.get("id"): node for node in self.root.iter() if node.get("id")}

    def get(self, name: str) -> ET.Element:
        try:
            return self.by_id[name]
        except KeyError:
            raise ArtError(f"svg-cards: no element #{name}") from None

    def needed(self, node: ET.Element) -> list[str]:
        """The ids `node` refers to, with theirs, each once, the deepest first."""
        order: list[str] = []

        def visit(element: ET.Element) -> None:
            for child in element.iter():
                ref = child.get(HREF) or child.get("href")
                if ref and ref.startswith("#") and ref[1:] not in order:
                    target = self.get(ref[1:])
                    visit(target)
                    if ref[1:] not in order:
                        order.append(ref[1:])

        visit(node)
        return order


def copy(node: ET.Element) -> ET.Element:
    return ET.fromstring(ET.tostring(node))


def with_short_ids(sheet: Sheet, names: list[str]) -> tuple[list[ET.Element], dict[str, str]]:
    """Copies of the named defs under ids a, b, c, ... and the map from the old ids to the new."""
    renamed = {name: chr(ord("a") + i) if i < 26 else f"z{i}" for i, name in enumerate(names)}
    return [copy(sheet.get(name)) for name in names], renamed


def relink(nodes: list[ET.Element], renamed: dict[str, str]) -> None:
    for top in nodes:
        for child in top.iter():
            ref = child.get(HREF)
            if ref and ref[1:] in renamed:
                child.set(HREF, "#" + renamed[ref[1:]])


def render(view_box: str, sheet: Sheet, body: list[ET.Element], step: float) -> str:
    """A standalone SVG of `body` with every def it refers to, ids shortened."""
    names = []
    for node in body:
        names += [n for n in sheet.needed(node) if n not in names]
    defs, renamed = with_short_ids(sheet, names)
    relink(defs + body, renamed)
    for node, name in zip(defs, names):
        for child in node.iter():
            child.attrib.pop("id", None)
    root = ET.Element(f"{{{SVG}}}svg", {"viewBox": view_box})
    if defs:
        ET.SubElement(root, f"{{{SVG}}}defs").extend(defs)
    root.extend(body)
    clean(root, step)
    for node, name in zip(defs, names):
        node.set("id", renamed[name])  # after clean(), which drops every id
    return text_of(root)


# ------------------------------------------------------------------ the cards
SUIT_OR_LETTER = {"#base", *(f"#{s}" for s in SUITS.values()), *(f"#{c}" for c in COURTS.values())}
FRAME_MOVE = re.compile(r"^m\s*(-?[\d.]+),(-?[\d.]+)\s+(-?[\d.]+),(-?[\d.]+)$")


def court(sheet: Sheet, rank: str, suit: str) -> str:
    """A court card's figure in its frame: the card without its base, indices and suit marks, cut to the frame."""
    card = sheet.get(f"{SUITS[suit]}_{COURTS[rank]}")
    translate = re.fullmatch(r"translate\((-?[\d.]+),(-?[\d.]+)\)", card.get("transform", ""))
    if not translate:
        raise ArtError(f"svg-cards: {card.get('id')} is not placed by a translation")
    dx, dy = float(translate.group(1)), float(translate.group(2))
    kept, frame = [], []
    for child in card:
        refs = {node.get(HREF) for node in child.iter() if node.get(HREF)}
        if refs & SUIT_OR_LETTER:
            continue  # the base, the indices, the suit marks (and the white under them): the page's own
        kept.append(copy(child))
        for path in child.iter(f"{{{SVG}}}path"):
            if moved := FRAME_MOVE.match(path.get("d", "")):
                x, y, ddx, ddy = map(float, moved.groups())
                frame += [(x + dx, y + dy), (x + ddx + dx, y + ddy + dy)]
    if len(frame) != 8:
        raise ArtError(f"svg-cards: {card.get('id')} has no frame of four lines")
    left, right = min(x for x, _ in frame) - 1, max(x for x, _ in frame) + 1
    top, bottom = min(y for _, y in frame) - 1, max(y for _, y in frame) + 1
    group = ET.Element(f"{{{SVG}}}g", {"transform": card.get("transform")})
    group.extend(kept)
    view_box = " ".join(short(v, 1) for v in (left, top, right - left, bottom - top))
    return render(view_box, sheet, [group], FIGURE_STEP)


def suit_shape(sheet: Sheet, suit: str) -> str:
    """A suit's shape, black (a mask: the page colours it), centred in a 16-point square."""
    shape = copy(sheet.get(SUITS[suit]))
    for node in shape.iter():
        node.attrib.pop("style", None)
    return render("-8 -8 16 16", sheet, [shape], 0.01)


def back(sheet: Sheet) -> str:
    """The back, in the site's red (the package's back takes its colour from the element that draws it)."""
    card = copy(sheet.get("back"))
    card.set("style", f"fill:{BACK_COLOUR}")
    for node in card.iter():
        if "fill:inherit" in node.get("style", ""):
            node.set("style", node.get("style").replace("fill:inherit", f"fill:{BACK_COLOUR}"))
    holder = ET.Element(f"{{{SVG}}}g", {"fill": BACK_COLOUR})
    holder.append(card)
    return render("0 0 169.1 244.6", sheet, [holder], 0.1)


def license_text(tgz_name: str, licence: str, authors: str) -> str:
    return (
        "The illustrated deck's art (the files of this folder but this one) is cut from SVG-cards\n"
        f"({tgz_name}, npm package `svg-cards`: https://github.com/htdebeer/SVG-cards), a fork of\n"
        "SVG-cards 2.0.1 by David Bellot (http://svg-cards.sourceforge.net/).\n\n"
        "    Copyright (C) 2005 David Bellot\n"
        "    Copyright (C) 2016, 2017 Huub de Beer\n\n"
        f"Authors (the package's AUTHORS file):\n{''.join('    ' + line + chr(10) for line in authors.splitlines() if line.strip())}\n"
        "It is distributed under the GNU Lesser General Public License, version 2.1 or (at your option) any\n"
        "later version, whose text follows. Changes: the twelve court figures, the four suit shapes and the\n"
        "back were cut from the package's one file into one file each, their numbers rounded and their ids\n"
        "and styles shortened, and the back coloured, by the Belote Coinchee project's tools/card_art.py,\n"
        "which is the source of these files together with the package above.\n\n"
        + licence
    )


def cut(tgz: Path, out: Path) -> list[str]:
    """Write the deck's files into out (made if missing); return their names."""
    with tarfile.open(tgz) as tar:
        def read(name: str) -> str:
            member = tar.extractfile(name)
            if member is None:
                raise ArtError(f"{tgz.name} has no {name}")
            return member.read().decode("utf-8")
        sheet = Sheet(read(ART_FILE))
        licence, authors = read(LICENSE_FILE), read(AUTHORS_FILE)
    if "GNU LESSER GENERAL PUBLIC LICENSE" not in licence:
        raise ArtError(f"{tgz.name}: its LICENSE is not the LGPL the site names")
    out.mkdir(parents=True, exist_ok=True)
    files = {f"{rank}{suit}.svg": court(sheet, rank, suit) for rank in COURTS for suit in SUITS}
    files |= {f"suit-{suit}.svg": suit_shape(sheet, suit) for suit in SUITS}
    files["back.svg"] = back(sheet)
    files["LICENSE.txt"] = license_text(tgz.name, licence, authors)
    for name, text in files.items():
        (out / name).write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
    return sorted(files)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    try:
        names = cut(Path(argv[0]), Path(argv[1]))
    except ArtError as error:
        print(f"card_art: error: {error}", file=sys.stderr)
        return 1
    size = sum((Path(argv[1]) / name).stat().st_size for name in names)
    print(f"card_art: {len(names)} files, {size / 1e3:.1f} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
