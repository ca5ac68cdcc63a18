#!/usr/bin/env bash
# Browser suites use Debian's Chromium; no test tool may download a browser of its own.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium (browser suites need /usr/bin/chromium)…"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
/usr/bin/chromium --version
