#!/bin/sh
# Regenerate the golden display images (every demo on every panel) with the render
# command itself.  Run from the repository root after an intended change to the display,
# look at the changed PNGs (git diff --stat; an image viewer), and commit them.
set -e
cd "$(dirname "$0")/../../.."
BGBOARD="${BGBOARD:-.venv/bin/bgboard}"
for panel in waveshare-2in13 waveshare-2in9 waveshare-4in2 waveshare-7in5 inky-phat inky-what; do
  for demo in opening cube-offered crawford illegal-move hint match-over match-analysis game-over lesson clock-low setup; do
    "$BGBOARD" render --demo "$demo" --panel "$panel" --out "tests/data/display/$demo--$panel.png" >/dev/null
  done
done
echo "regenerated $(ls tests/data/display/*.png | wc -l) golden images"
