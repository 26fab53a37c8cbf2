#!/usr/bin/env bash
# Debian packages the test layers need: pgTAP and pg_prove for the database tests,
# Chromium for the end-to-end tests, poppler-utils (pdftotext) to read generated PDFs. Run as root (CI does); safe to run again.
set -euo pipefail
packages=(postgresql-15-pgtap libtap-parser-sourcehandler-pgtap-perl chromium poppler-utils)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup:system: everything is installed (${packages[*]})"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup:system: run as root to install: ${missing[*]}" >&2
  exit 1
fi
echo "setup:system: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
