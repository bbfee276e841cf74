#!/usr/bin/env bash
# Makes the page's fonts (web/assets/fonts/*.woff2): Noto Sans (Latin and Cyrillic), Noto Sans
# Thai and Noto Naskh Arabic, regular weight, cut down to the characters the page's languages
# use, so that Thai and Arabic render on a machine that has no such font. The fonts are under
# the SIL Open Font License 1.1 (web/assets/fonts/OFL.txt). Run it again only to change them:
# the woff2 files are committed.
#
# Needs Debian's fonts-noto-core and PyPI's fonttools[woff] (pyftsubset with brotli):
#   apt-get install fonts-noto-core && pip install 'fonttools[woff]'
set -euo pipefail
cd "$(dirname "$0")/.."
source=/usr/share/fonts/truetype/noto
out=web/assets/fonts
mkdir -p "$out"
# Shared by all three: punctuation, the isolates that keep squares left to right in Arabic
# (U+2066-2069), the arrows and the multiplication sign of "9x9".
common="U+0020-007E,U+00A0-00FF,U+2000-206F,U+2190-2193,U+00D7,U+25A0-25FF"
subset() { # NAME FILE UNICODES
  pyftsubset "$source/$2" --unicodes="$3,$common" --flavor=woff2 --layout-features='*' \
    --output-file="$out/$1.woff2"
}
subset noto-sans NotoSans-Regular.ttf "U+0100-017F,U+0218-021B,U+0400-045F,U+0490-0491"
subset noto-sans-thai NotoSansThai-Regular.ttf "U+0E00-0E7F"
subset noto-naskh-arabic NotoNaskhArabic-Regular.ttf "U+0600-06FF"
ls -l "$out"/*.woff2
