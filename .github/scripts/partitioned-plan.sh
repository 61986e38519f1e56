#!/usr/bin/env bash
# Plan job of the partitioned build (.github/workflows/partitioned-build.yml): stages the release's FASTA (streamed
# from its URL and verified against SHA256, never stored on the runner's small disk) and NCBI's taxdump (verified
# against its published MD5) in $STAGING_URL/input/, so every part builds from the same bytes.
# Env: FASTA_URL, SHA256 (64 hex digits, or UNVERIFIED=1), TAXDUMP_URL (default NCBI's), STAGING_URL (s3://...).
set -euo pipefail
: "${FASTA_URL:?}" "${STAGING_URL:?}"
TAXDUMP_URL="${TAXDUMP_URL:-https://ftp.ncbi.nlm.nih.gov/pub/taxonomy/taxdump.tar.gz}"
if [ -z "${SHA256:-}" ] && [ "${UNVERIFIED:-}" != 1 ]; then echo "::error::give the FASTA's sha256 (or UNVERIFIED=1)"; exit 1; fi
work="${WORK_DIR:-plan-work}"
mkdir -p "$work/taxdump"
name="$(basename "${FASTA_URL%%\?*}")"

# The FASTA: download → hash → upload in one stream (the hash reads a copy through a named pipe).
rm -f "$work/fasta.pipe" && mkfifo "$work/fasta.pipe"
sha256sum < "$work/fasta.pipe" | cut -d' ' -f1 > "$work/fasta.sha256" &
hasher=$!
curl -fsSL --retry 5 "$FASTA_URL" | tee "$work/fasta.pipe" | aws s3 cp - "$STAGING_URL/input/$name"
wait "$hasher"
actual="$(cat "$work/fasta.sha256")"
echo "$name: sha256 $actual"
if [ -n "${SHA256:-}" ] && [ "$actual" != "$SHA256" ]; then
  aws s3 rm "$STAGING_URL/input/$name"
  echo "::error::$name has sha256 $actual, expected $SHA256"
  exit 1
fi

# The taxdump: small; verified against NCBI's .md5 when it publishes one.
curl -fsSL --retry 5 -o "$work/taxdump.tar.gz" "$TAXDUMP_URL"
if md5="$(curl -fsSL --retry 5 "$TAXDUMP_URL.md5" 2>/dev/null)"; then
  (cd "$work" && echo "${md5%% *}  taxdump.tar.gz" | md5sum -c -)
elif [ "${UNVERIFIED:-}" != 1 ]; then echo "::error::no MD5 published at $TAXDUMP_URL.md5"; exit 1; fi
tar -xzf "$work/taxdump.tar.gz" -C "$work/taxdump" nodes.dmp names.dmp
aws s3 cp "$work/taxdump/nodes.dmp" "$STAGING_URL/input/taxdump/nodes.dmp"
aws s3 cp "$work/taxdump/names.dmp" "$STAGING_URL/input/taxdump/names.dmp"
