#!/usr/bin/env python3
"""Makes the CJK font subsets in app/assets/fonts (ADR 0019) from the full Noto Sans SC, JP and
KR Regular TTFs (e.g. the @expo-google-fonts/noto-sans-{sc,jp,kr} npm packages). Each keeps
ASCII, CJK punctuation and full-width forms, and the common characters of its script:
GB2312 symbols and level-1 hanzi; kana, JIS X 0208 symbols and level-1 kanji; KS X 1001
symbols, jamo and its 2,350 hangul syllables. Needs fonttools (Debian: apt-get install fonttools).

usage: scripts/subset-cjk-fonts.py SC.ttf JP.ttf KR.ttf
"""
import subprocess
import sys
import tempfile


def chars(codec, rows, cols=range(0xA1, 0xFF)):
    out = set()
    for row in rows:
        for col in cols:
            try:
                out.add(bytes([row, col]).decode(codec))
            except UnicodeDecodeError:
                pass
    return out


def span(first, last):
    return {chr(c) for c in range(first, last)}


common = span(0x20, 0x7F) | span(0x3000, 0x3040) | span(0xFF00, 0xFFF0)
subsets = {
    "SC": common | chars("gb2312", range(0xA1, 0xAA)) | chars("gb2312", range(0xB0, 0xD8)),
    "JP": common
    | span(0x3040, 0x3100)
    | chars("euc-jp", range(0xA1, 0xA9))
    | chars("euc-jp", range(0xB0, 0xD0)),
    "KR": common
    | span(0x3130, 0x3190)
    | chars("euc-kr", range(0xA1, 0xAD))
    | chars("euc-kr", range(0xB0, 0xC9)),
}

for name, source in zip(["SC", "JP", "KR"], sys.argv[1:4]):
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as text:
        text.write("".join(sorted(subsets[name])))
        text.flush()
        subprocess.run(
            [
                "pyftsubset",
                source,
                f"--text-file={text.name}",
                f"--output-file=app/assets/fonts/NotoSans{name}-Regular-subset.ttf",
                "--layout-features=*",
                "--no-hinting",
                "--desubroutinize",
            ],
            check=True,
        )
