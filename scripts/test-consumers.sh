#!/usr/bin/env bash
# Tests the packages from the outside, as their users get them: packs both (each prepack builds what it ships),
# checks the tarballs with publint and @arethetypeswrong/cli, installs them into the fixture apps of
# test/consumers in a temporary folder (never resolving to this workspace), typechecks each app in strict mode,
# builds it with its own toolchain, and uploads a file from each in headless Chromium (test/consumers/*.spec.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${CONSUMERS_DIR:-$(mktemp -d /tmp/store-consumers.XXXXXX)}
echo "consumer apps in $work"
mkdir -p "$work"
tarballs=$(node --import tsx scripts/pack.ts "$work/tarballs" | tail -n 1)
kit=$(node -e 'console.log(JSON.parse(process.argv[1]).kit)' "$tarballs")
service=$(node -e 'console.log(JSON.parse(process.argv[1]).service)' "$tarballs")

echo "== publint, attw"
npx publint "$kit" --strict
npx publint "$service" --strict
# ESM only: no CommonJS entry is offered, so node10 and require() resolutions are not applicable.
npx attw "$kit" --profile esm-only
npx attw "$service" --profile esm-only

echo "== install the tarballs into the fixture apps"
rm -rf "$work/apps"
cp -r test/consumers/apps "$work/apps"
cp test/consumers/package.json "$work/package.json"
cd "$work"
# A reused CONSUMERS_DIR must not keep the last run's kit: npm would take the lock's copy of the same version.
rm -rf package-lock.json node_modules/store-upload-kit node_modules/@store-upload-kit
npm pkg set "dependencies.store-upload-kit=file:${kit}" "devDependencies.@store-upload-kit/service=file:${service}"
npm install --no-audit --no-fund --loglevel=error
# Installed from the tarball, not linked to the workspace.
test ! -L node_modules/store-upload-kit
test -f node_modules/store-upload-kit/dist/browser/store-upload-kit.js
# The elements' styles ship minified (scripts/css-literals.ts): no indented declarations left.
! grep -q '^ *display: block;' node_modules/store-upload-kit/dist/lib/elements/progress-list/store-progress-list.styles.js

echo "== typecheck (strict) and build each app"
# One command a line: errexit does not stop inside an && list.
npx tsc -p apps/vanilla
npx vite build apps/vanilla --logLevel warn
npx tsc -p apps/react
npx vite build apps/react --logLevel warn
npx vue-tsc -p apps/vue
npx vite build apps/vue --logLevel warn
npx tsc -p apps/webpack
npx webpack --config apps/webpack/webpack.config.js --stats errors-warnings
mkdir -p vendor && rm -rf vendor/store-upload-kit && cp -r node_modules/store-upload-kit/dist/browser vendor/store-upload-kit

echo "== upload from each app in Chromium"
cd "$root"
bash scripts/ensure-chromium.sh >/dev/null
CONSUMERS_DIR="$work" npx playwright test -c test/consumers/playwright.config.ts
