#!/usr/bin/env bash
# Merge job of the partitioned build (.github/workflows/partitioned-build.yml; test/github/partitionedBuild.test.ts
# runs it with a stand-in `aws`): joins the parts' part.json files (in $META_ROOT/*/) into the index pages, the
# taxonomy file, the peptide counts and manifest.json, uploads them, manifest.json LAST: until then readers keep the previous dataset.
# Env: META_ROOT, DATASET_URL (s3://bucket/prefix); optional PUBLIC_URL (the dataset over HTTP, checked at the end).
set -euo pipefail
: "${META_ROOT:?}" "${DATASET_URL:?}"
work="${WORK_DIR:-merge-work}"
rm -rf "$work/index"
npm run -s build:merge -- --index-only --out "$work/index" "$META_ROOT"/*/
aws s3 sync "$work/index" "$DATASET_URL" --exclude manifest.json \
  --content-type application/octet-stream --cache-control "public, max-age=31536000, immutable" --size-only
aws s3 cp "$work/index/manifest.json" "$DATASET_URL/manifest.json" --content-type application/json --cache-control "public, max-age=60"
if [ -n "${PUBLIC_URL:-}" ]; then npm run -s query -- search --mass1 1000 --mass2 1001 --page-size 1 --shards "$PUBLIC_URL"; fi
