#!/bin/sh
# Regenerate the golden display images (every demo on every panel, in English here and in
# each other language under its code: nl/, de/, nb/, da/) with the render command itself.
# Run from the repository root after an intended change to the display or a catalogue,
# look at the changed PNGs (git diff --stat; an image viewer), and commit them.
set -e
cd "$(dirname "$0")/../../.."
BGBOARD="${BGBOARD:-.venv/bin/bgboard}"
for lang in en nl de nb da; do
  dir="tests/data/display"
  [ "$lang" = en ] || dir="tests/data/display/$lang"
  mkdir -p "$dir"
  for panel in waveshare-2in13 waveshare-2in9 waveshare-4in2 waveshare-7in5 inky-phat inky-what; do
    for demo in opening cube-offered crawford illegal-move hint match-over match-analysis game-over lesson clock-low setup; do
      "$BGBOARD" render --demo "$demo" --panel "$panel" --lang "$lang" --out "$dir/$demo--$panel.png" >/dev/null
    done
  done
done
echo "regenerated $(ls tests/data/display/*.png tests/data/display/*/*.png | wc -l) golden images"
