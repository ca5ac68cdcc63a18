#!/usr/bin/env bash
# Tests the packages from the outside, as their users get them: packs both (each prepack builds what it ships),
# checks the tarballs with publint and @arethetypeswrong/cli, installs them into the fixture apps of
# test/consumers in a temporary folder (never resolving to this workspace) and the service tarball into a folder
# beside them, typechecks each app in strict mode,
# builds it with its own toolchain, and uploads a file from each in headless Chromium (test/consumers/*.spec.ts).
# The frameworks' apps (Next.js, Nuxt, Angular, SvelteKit) share the one install and build side by side; each step
# prints how long it took. Only the Playwright step takes the machine's one-Chromium lock (/tmp/chromium.lock): the
# installs and builds before it leave other suites' browsers free (so do not run the script itself under that lock:
# its Playwright step would wait for it forever).
set -euo pipefail
# Prints a step's wall time after running it: `timed <label> <command…>`. It returns the command's failure itself:
# errexit is off inside a function called from an && list or an if, so it cannot be left to stop the step.
timed() {
  local label=$1 start=$SECONDS
  shift
  "$@" || return
  echo "   $label: $((SECONDS - start)) s"
}
# Steps, in order: `install` (pack, publint, attw, npm install), `build` (typecheck and build each app), `check` (the
# uploads in Chromium). All three by default; scripts/test.sh runs them apart (same CONSUMERS_DIR) so the install
# overlaps the typecheck and lint, the builds the node suites, and only the check waits for the browser.
steps=" ${*:-install build check} "
step() { [[ $steps == *" $1 "* ]]; }
cd "$(dirname "$0")/.."
root=$(pwd)
if [ -z "${CONSUMERS_DIR:-}" ] && [ "$steps" != " install build check " ]; then
  echo "running only some steps (${steps}) needs CONSUMERS_DIR, the folder the steps share"
  exit 2
fi
work=${CONSUMERS_DIR:-$(mktemp -d /tmp/store-consumers.XXXXXX)}
echo "consumer apps in $work"
mkdir -p "$work"
if step install; then
tarballs=$(node --import tsx scripts/pack.ts "$work/tarballs" | tail -n 1)
kit=$(node -e 'console.log(JSON.parse(process.argv[1]).kit)' "$tarballs")
service=$(node -e 'console.log(JSON.parse(process.argv[1]).service)' "$tarballs")
# Packing rebuilt packages/*/dist, which the service's test runs start from: scripts/test.sh starts them after this.
touch "$work/.packed"

echo "== publint, attw"
npx publint "$kit" --strict
npx publint "$service" --strict
# ESM only: no CommonJS entry is offered, so node10 and require() resolutions are not applicable.
npx attw "$kit" --profile esm-only
npx attw "$service" --profile esm-only

echo "== install the tarballs: the kit into the fixture apps, the service into a folder of its own, side by side"
rm -rf "$work/apps" "$work/service"
cp -r test/consumers/apps "$work/apps"
cp test/consumers/package.json "$work/package.json"
mkdir "$work/service"
cd "$work"
# A reused CONSUMERS_DIR must not keep the last run's kit: npm would take the lock's copy of the same version.
rm -rf package-lock.json node_modules/store-upload-kit node_modules/@store-upload-kit
npm pkg set "dependencies.store-upload-kit=file:${kit}"
# The service, as a test setup installs it beside an app: its install is mostly better-sqlite3's build from source
# (one core for a minute or more), the apps' mostly downloads, so they run at once (one npm cache serves both). Its
# dependency on the kit resolves to the same tarball.
echo '{ "private": true }' > service/package.json
(cd service && npm pkg set "dependencies.@store-upload-kit/service=file:${service}" "dependencies.store-upload-kit=file:${kit}")
# It says when it is done in a file: the Next.js app's build waits for it (its route handler imports the service).
install_service() {
  cd service
  if timed "npm install (the service)" npm install --no-audit --no-fund --loglevel=error; then touch .installed; else
    touch .failed
    return 1
  fi
}
rm -f service/.installed service/.failed
( set -e; install_service ) > install-service.log 2>&1 &
service_install=$!
timed "npm install (every fixture app)" npm install --no-audit --no-fund --loglevel=error
# Run apart from the build step, the install step ends with the service's install.
if ! step build; then
  if wait "$service_install"; then grep '^   ' install-service.log; else echo "-- the service's install failed:"; cat install-service.log; exit 1; fi
  service_install=
fi
echo "   node_modules: $(du -s --apparent-size -m node_modules | cut -f1) MB of files"
# The apps that run the service inside their own server (Express, Next.js) import it from the service's install.
mkdir -p node_modules/@store-upload-kit
ln -sfn ../../service/node_modules/@store-upload-kit/service node_modules/@store-upload-kit/service
# Installed from the tarball, not linked to the workspace.
test ! -L node_modules/store-upload-kit
test -f node_modules/store-upload-kit/dist/browser/store-upload-kit.js
# The elements' styles ship minified (scripts/css-literals.ts): no indented declarations left. A missing file fails
# too (grep would read nothing and the check would pass); the styles must still declare `display:block`, so a grep
# that finds nothing means minified, not moved. (`! cmd` is not checked by errexit: the tests are ifs.)
styles=node_modules/store-upload-kit/dist/lib/elements/progress-list/store-progress-list.styles.js
if ! grep -q 'display: *block' "$styles"; then
  echo "cannot check the packed styles' minification: $styles is missing or declares no display:block"
  exit 1
fi
if grep -q '^ *display: block;' "$styles"; then
  echo "the packed elements' styles are not minified (indented declarations in store-progress-list.styles.js)"
  exit 1
fi

fi

if step build; then
cd "$work"
echo "== typecheck (strict) and build each app"
export NEXT_TELEMETRY_DISABLED=1 NUXT_TELEMETRY_DISABLED=1 NG_CLI_ANALYTICS=false
# The frameworks' builds run in the background, each logging to its own file, while the Vite and webpack apps build.
frameworks=(next nuxt angular sveltekit)
build_next() {
  # Waits for the service's install, which says when it is done (a file); each look is one stat.
  local waited=0
  until [ -e service/.installed ]; do
    if [ -e service/.failed ] || [ $waited -ge 900 ]; then echo "the service's install failed or took over 900 s"; return 1; fi
    sleep 1
    waited=$((waited + 1))
  done
  cd apps/next && timed "next build" ../../node_modules/.bin/next build
}
build_nuxt() {
  cd apps/nuxt
  timed "nuxi typecheck" ../../node_modules/.bin/nuxi typecheck
  timed "nuxi build" ../../node_modules/.bin/nuxi build
}
# Angular copies assets only from inside its workspace: the app's `node_modules` is a link to the shared install, so
# angular.json names the kit's workers as an app of its own would (`node_modules/store-upload-kit/dist/workers`).
build_angular() { cd apps/angular && ln -sfn ../../node_modules node_modules && timed "ng build (strict templates)" ../../node_modules/.bin/ng build; }
build_sveltekit() {
  cd apps/sveltekit && ../../node_modules/.bin/svelte-kit sync
  timed "svelte-check" ../../node_modules/.bin/svelte-check --tsconfig ./tsconfig.json --fail-on-warnings
  timed "vite build (SvelteKit)" ../../node_modules/.bin/vite build --logLevel error
}
declare -A pids
for app in "${frameworks[@]}"; do
  ( set -e; "build_$app" ) > "build-$app.log" 2>&1 &
  pids[$app]=$!
done
# One command a line: errexit does not stop inside an && list.
timed "tsc + vite build (vanilla)" bash -c 'npx tsc -p apps/vanilla && npx vite build apps/vanilla --logLevel warn'
timed "tsc + vite build (React)" bash -c 'npx tsc -p apps/react && npx vite build apps/react --logLevel warn'
timed "vue-tsc + vite build (Vue)" bash -c 'npx vue-tsc -p apps/vue && npx vite build apps/vue --logLevel warn'
timed "tsc + webpack" bash -c 'npx tsc -p apps/webpack && npx webpack --config apps/webpack/webpack.config.js --stats errors-warnings'
failed=()
for app in "${frameworks[@]}"; do
  if wait "${pids[$app]}"; then grep '^   ' "build-$app.log"; else failed+=("$app"); echo "-- $app failed:"; cat "build-$app.log"; fi
done
test ${#failed[@]} -eq 0
mkdir -p vendor && rm -rf vendor/store-upload-kit && cp -r node_modules/store-upload-kit/dist/browser vendor/store-upload-kit

if [ -n "${service_install:-}" ]; then
  if wait "$service_install"; then grep '^   ' install-service.log; else echo "-- the service's install failed:"; cat install-service.log; exit 1; fi
fi
test -e service/.installed
echo "   service/node_modules: $(du -s --apparent-size -m service/node_modules | cut -f1) MB of files"

fi

if step check; then
echo "== upload from each app in Chromium"
cd "$root"
bash scripts/ensure-chromium.sh >/dev/null
CONSUMERS_DIR="$work" PLAYWRIGHT_COUNT_FILE="$work/playwright-count.json" flock /tmp/chromium.lock \
  npx playwright test -c test/consumers/playwright.config.ts
# Fewer checks than scripts/expected-test-counts.json expects (an app or a spec dropped) fails the stage.
node --import tsx scripts/test-count.ts "consumers" playwright "$work/playwright-count.json"
fi
