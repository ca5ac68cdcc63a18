#!/usr/bin/env bash
# The compatibility suite (test/compat/) drives the service with Google's Python client: Debian's python3-googleapi,
# for /usr/bin/python3 (not a pyenv python on PATH). Installs it when missing; quick when already there.
set -euo pipefail
if ! /usr/bin/python3 -c 'import googleapiclient.discovery, httplib2' 2>/dev/null; then
  echo "Installing Debian's python3-googleapi (test/compat needs Google's Python client)…"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-googleapi >/dev/null
fi
/usr/bin/python3 -c 'import googleapiclient; print("python3-googleapi", googleapiclient.__version__)'
