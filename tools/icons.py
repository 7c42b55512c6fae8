#!/usr/bin/env python3
"""Draw the app icons (web/icons/*.png) in pure Python: a card with a red heart on the felt green.

    python3 tools/icons.py [--out web/icons]

The same drawing as web/icons/icon.svg, rasterised with 4x4 supersampling and written as PNG with zlib and
struct only (no Pillow). The files are committed; run this again after changing the drawing.

- icon-192.png, icon-512.png: purpose "any" (rounded green square, transparent corners);
- icon-maskable-512.png: purpose "maskable" (green to the edges, the card inside the central 80 % safe zone);
- apple-touch-icon.png (180): opaque, full bleed, as iOS rounds the corners itself.
"""
from __future__ import annotations

import argparse
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FELT = (0x1F, 0x6B, 0x40)
PAPER = (0xFB, 0xFA, 0xF6)
GOLD = (0xC8, 0xA1, 0x3A)
RED = (0xC8, 0x10, 0x2E)
SAMPLES = 4

# Each icon: file name, size in pixels, corner radius of the background (fraction of the side, None = full
# bleed and opaque), scale of the card drawing inside the square.
ICONS = (
    ("icon-192.png", 192, 14 / 64, 1.0),
    ("icon-512.png", 512, 14 / 64, 1.0),
    ("icon-maskable-512.png", 512, None, 0.78),
    ("apple-touch-icon.png", 180, None, 0.86),
)


def in_round_rect(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def in_heart(x: float, y: float) -> bool:
    """The heart of the 64-unit drawing, centred at (32, 33), about 26 units wide."""
    u = (x - 32) / 13.5
    v = -(y - 34.5) / 13.5
    return (u * u + v * v - 1) ** 3 - u * u * v ** 3 <= 0


def colour_at(x: float, y: float, radius: float | None, scale: float) -> tuple[int, int, int, int] | None:
    """The colour of the 64-unit drawing at (x, y), or None where it is transparent."""
    if radius is not None and not in_round_rect(x, y, 0, 0, 64, 64, radius * 64):
        return None
    # the card drawing, scaled about the centre
    cx, cy = 32 + (x - 32) / scale, 32 + (y - 32) / scale
    if in_round_rect(cx, cy, 13, 7, 51, 57, 6):
        if not in_round_rect(cx, cy, 15, 9, 49, 55, 4):
            return (*GOLD, 255)
        return (*RED, 255) if in_heart(cx, cy) else (*PAPER, 255)
    return (*FELT, 255)


def render(size: int, radius: float | None, scale: float) -> bytes:
    """RGBA rows, each preceded by PNG filter byte 0."""
    rows = bytearray()
    step = 64 / size
    offsets = [(i + 0.5) / SAMPLES for i in range(SAMPLES)]
    for py in range(size):
        rows.append(0)
        for px in range(size):
            r = g = b = a = 0
            for oy in offsets:
                for ox in offsets:
                    c = colour_at((px + ox) * step, (py + oy) * step, radius, scale)
                    if c is not None:
                        r, g, b, a = r + c[0] * c[3], g + c[1] * c[3], b + c[2] * c[3], a + c[3]
            n = SAMPLES * SAMPLES
            if a:
                rows += bytes((round(r / a), round(g / a), round(b / a), round(a / n)))
            else:
                rows += b"\0\0\0\0"
    return bytes(rows)


def png(width: int, height: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rgba_rows, 9))
            + chunk(b"IEND", b""))


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) of PNG bytes, read from the IHDR chunk."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    return struct.unpack(">II", data[16:24])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=ROOT / "web" / "icons")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, size, radius, scale in ICONS:
        data = png(size, size, render(size, radius, scale))
        (args.out / name).write_bytes(data)
        print(f"icons: {name} {size}x{size} ({len(data) / 1e3:.1f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
