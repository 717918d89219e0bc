#!/usr/bin/env bash
# Runs every example command shown in README.md and docs/*.md on a clean
# clone of the committed tree, in a directory with no ../shared beside it,
# and fails on the first one that fails: the documentation promises that a
# stranger's clone runs them as written.
#
# An example is an indented code line (optionally after "$ ") that starts
# with `go run .`, `ladderbot` or `./ladderbot`, possibly after VAR=value
# assignments. Lines that are synopses or need the outside world are
# skipped, and listed: placeholders (FILE, ID, …, [optional], <…>, R1),
# Discord tokens, example hosts, `run`. `serve` is started in the
# background, its page fetched, and stopped. `go run .` runs one binary
# built from the clone, so the examples cost one build.
#
# Usage: scripts/docs-examples.sh   (from anywhere inside the repository)
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet "$root" "$work/repo"
cd "$work/repo"
if [ -e ../shared ]; then
  echo "docs-examples: $work/shared exists; the clean copy must not see one" >&2
  exit 1
fi
go build -o "$work/ladderbot" .
export LOG_LEVEL=error

skip='\[|…|\bFILE\b|\bID\b|<|\bR1\b|example|DISCORD_TOKEN|\$TOKEN|\$API|docker|@db/| run$'
ran=0
skipped=0
for doc in README.md docs/*.md; do
  # Indented lines, "$ " prompts and trailing "# comments" removed.
  while IFS= read -r line; do
    cmd=$(sed -E 's/^ {4,}(\$ )?//; s/[[:space:]]+#.*$//' <<<"$line")
    case "$cmd" in
      *"go run ."* | ladderbot\ * | ./ladderbot\ * | *=*" ladderbot "*) ;;
      *) continue ;;
    esac
    if grep -Eq "$skip" <<<"$cmd"; then
      echo "skip  $doc: $cmd"
      skipped=$((skipped + 1))
      continue
    fi
    run=$(sed -E "s#go run \\.#$work/ladderbot#; s#(^|[ =])\\.?/?ladderbot #\\1$work/ladderbot #" <<<"$cmd")
    echo "run   $doc: $cmd"
    if [[ "$cmd" == *" serve" ]]; then
      port=$((20000 + RANDOM % 20000))
      HTTP_ADDR=127.0.0.1:$port bash -c "exec env $run" >"$work/serve.log" 2>&1 &
      pid=$!
      ok=""
      for _ in $(seq 1 100); do
        if curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; then ok=1; break; fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
      done
      page=$(curl -sf "http://127.0.0.1:$port/" || true)
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      if [ -z "$ok" ] || ! grep -q "<h1>ladderbot</h1>" <<<"$page"; then
        echo "FAIL  $doc: $cmd (serve did not answer)"; cat "$work/serve.log"; exit 1
      fi
    elif ! out=$(bash -c "$run" 2>&1); then
      echo "FAIL  $doc: $cmd"; echo "$out"; exit 1
    fi
    ran=$((ran + 1))
  done < <(grep -E '^ {4,}(\$ )?[A-Za-z./]' "$doc")
done
echo "docs-examples: $ran examples ran, $skipped skipped as synopses or needing the outside world"
