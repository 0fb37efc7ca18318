#!/usr/bin/env bash
# Build the viewer's JavaScript: three.js from npm and pyvista_quake/exporting/viewer/js/viewer.js, bundled by esbuild
# into one script the package ships (pyvista_quake/exporting/viewer/static/viewer.bundle.js, with three.js's licence).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
THREE_VERSION=0.187.0
(cd "$work" && npm install --no-audit --no-fund "three@$THREE_VERSION" esbuild@0.25 >/dev/null)
cp pyvista_quake/exporting/viewer/js/viewer.js "$work/entry.js"
NODE_PATH="$work/node_modules" "$work/node_modules/.bin/esbuild" "$work/entry.js" --bundle --minify --format=iife \
  --global-name=PyvistaQuakeViewer --legal-comments=none --outfile=pyvista_quake/exporting/viewer/static/viewer.bundle.js
cp "$work/node_modules/three/LICENSE" pyvista_quake/exporting/viewer/static/LICENSE-three.txt
echo "three $THREE_VERSION" > pyvista_quake/exporting/viewer/static/VERSIONS.txt
