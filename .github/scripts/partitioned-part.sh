#!/usr/bin/env bash
# One part of the partitioned build (.github/workflows/partitioned-build.yml; test/github/partitionedBuild.test.ts
# runs it with a stand-in `aws`): builds part $PART of $PARTS from the staged input, uploads its shards to the dataset
# (named by content: safe to upload before the manifest, never overwritten with other bytes) and, from part 1
# only, the shared files (every part writes the same ones), then leaves part.json, the part's taxonomy file and its
# peptide counts' pages in $META_DIR for the merge job. Those are not uploaded: they count this slice's peptides only.
# Env: PART, PARTS, STAGING_URL, DATASET_URL (s3://bucket/prefix), META_DIR; optional THREADS, BUILD_ARGS, VIEWS
# (space-separated `--view` values, e.g. Carbamidomethyl@C: each part writes its slice of every view).
set -euo pipefail
: "${PART:?}" "${PARTS:?}" "${STAGING_URL:?}" "${DATASET_URL:?}" "${META_DIR:?}"
work="${WORK_DIR:-part-work}"
rm -rf "$work/part"
mkdir -p "$work/input"
aws s3 cp "$STAGING_URL/input/" "$work/input/" --recursive
taxdump=()
if [ -f "$work/input/taxdump/nodes.dmp" ]; then taxdump=(--taxdump "$work/input/taxdump"); fi
views=()
for view in ${VIEWS:-}; do views+=(--view "$view"); done
# shellcheck disable=SC2086 # BUILD_ARGS is a list of flags
npm run -s build:shards -- --input "$work/input/*.fasta*" "${taxdump[@]}" "${views[@]}" --part "$PART/$PARTS" --out "$work/part" \
  --threads "${THREADS:-$(nproc)}" ${BUILD_ARGS:-}
immutable=(--content-type application/octet-stream --cache-control "public, max-age=31536000, immutable" --size-only)
skip=(--exclude part.json --exclude "*taxonomy-*" --exclude "*peptide-counts-*")
if [ "$PART" != 1 ]; then skip+=(--exclude "*accessions-*" --exclude "*proteins-*" --exclude "*sequences-*"); fi
aws s3 sync "$work/part" "$DATASET_URL" "${skip[@]}" "${immutable[@]}"
mkdir -p "$META_DIR"
cp "$work/part/part.json" "$META_DIR/"
# The files counted over this slice's peptides (part.json's taxonomy and peptideCounts), one a line.
node -e 'const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); for (const e of [p.taxonomy, ...(p.peptideCounts?.pages ?? [])]) if (e) console.log(e.file)' "$work/part/part.json" |
  while read -r file; do mkdir -p "$META_DIR/$(dirname "$file")" && cp "$work/part/$file" "$META_DIR/$file"; done
