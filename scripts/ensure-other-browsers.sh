#!/usr/bin/env bash
# The smoke suite in other browsers uses Debian's packages only (no tool downloads a browser or a driver):
# firefox-esr (driven by puppeteer-core over WebDriver BiDi), webkit2gtk-driver (WebKitWebDriver and WebKitGTK's
# MiniBrowser), and xvfb + xauth (MiniBrowser needs a display; xvfb-run gives it one). Idempotent.
set -euo pipefail
MINIBROWSER="$(ls /usr/lib/*/webkit2gtk-4.1/MiniBrowser 2>/dev/null | head -n 1 || true)"
if [ ! -x /usr/bin/firefox-esr ] || [ ! -x /usr/bin/WebKitWebDriver ] || [ -z "$MINIBROWSER" ] || [ ! -x /usr/bin/xvfb-run ] || [ ! -x /usr/bin/xauth ]; then
  echo "Installing Debian's firefox-esr, webkit2gtk-driver, xvfb and xauth (the other-browsers smoke suite needs them)…"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq firefox-esr webkit2gtk-driver xvfb xauth >/dev/null
  MINIBROWSER="$(ls /usr/lib/*/webkit2gtk-4.1/MiniBrowser | head -n 1)"
fi
/usr/bin/firefox-esr --version
echo "WebKitGTK $(xvfb-run -a "$MINIBROWSER" --version 2>/dev/null | tail -n 1) (${MINIBROWSER})"
