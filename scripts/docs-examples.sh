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
# Then the `$ curl` examples (docs/api.md) run against a real server: the
# sample season imported into embedded SQLite in the temporary directory
# (a copy of the README's sample.db when that example made one), a token
# made with `ladderbot token create`, and `ladderbot serve` on a free port,
# with API and TOKEN set as the page says. An example fails when curl
# fails, or when the answer's first line differs in kind from the one the
# page shows: another HTTP status (for `curl -i`), another first JSON key
# (an error where the page shows data, say), another first CSV column.
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

# curl examples: "doc<TAB>command<TAB>first line of the documented answer",
# continuation lines joined.
curl_examples() {
  awk '
    function flush() { if (cmd != "") printf "%s\t%s\t%s\n", FILENAME, cmd, ans; cmd = ""; ans = ""; state = 0 }
    /^ {4,}\$ curl / { flush(); line = $0; sub(/^ +\$ /, "", line)
      cont = (line ~ /\\$/); sub(/[ ]*\\$/, "", line); cmd = line; state = cont ? 1 : 2; next }
    state == 1 { line = $0; sub(/^ +/, "", line); cont = (line ~ /\\$/); sub(/[ ]*\\$/, "", line)
      cmd = cmd " " line; if (!cont) state = 2; next }
    state == 2 && /^ {4,}[^ $]/ { line = $0; sub(/^ +/, "", line); ans = line; flush(); next }
    state == 2 && /^[[:space:]]*$/ { next }
    state == 2 { flush() }
    END { flush() }
  ' "$@"
}

api_guild=100000000000000001
apidb="$work/api.db"
if [ -f sample.db ]; then
  cp sample.db "$apidb"
else
  DATABASE_URL="sqlite:$apidb" "$work/ladderbot" import --guild "$api_guild" --data docs/sample/matches.csv >/dev/null
fi
TOKEN=$(DATABASE_URL="sqlite:$apidb" "$work/ladderbot" token create --guild "$api_guild" --name docs-examples 2>/dev/null)
port=$((20000 + RANDOM % 20000))
DATABASE_URL="sqlite:$apidb" HTTP_ADDR="127.0.0.1:$port" "$work/ladderbot" serve >"$work/api.log" 2>&1 &
api_pid=$!
trap 'kill "$api_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
  if ! kill -0 "$api_pid" 2>/dev/null; then echo "FAIL  serve for the curl examples did not start"; cat "$work/api.log"; exit 1; fi
  sleep 0.2
done
export TOKEN API="http://127.0.0.1:$port/api/v1/guilds/$api_guild"
curls=0
# first_kind names what an answer's first line is: an HTTP status, a JSON
# object's first key, or a CSV header's first column.
first_kind() {
  case "$1" in
    HTTP/*) awk '{print "status " $2}' <<<"$1" ;;
    '{"'*) sed -E 's/^\{"([^"]*)".*/key \1/' <<<"$1" ;;
    *) echo "column ${1%%,*}" ;;
  esac
}
while IFS=$'\t' read -r doc cmd want; do
  echo "curl  $doc: $cmd"
  # Run as a reader types it, without pipefail: in `curl … | head -2`
  # head may exit before curl has written everything, and curl then
  # fails with a write error (23) although the reader saw the right lines;
  # whether it does depends on timing. An empty answer, or one whose first
  # line is not what the docs show, still fails the example.
  if ! out=$(bash -c "$cmd" 2>&1) || [ -z "$out" ]; then
    echo "FAIL  $doc: $cmd"; echo "$out"; cat "$work/api.log"; exit 1
  fi
  if [ -n "$want" ] && [ "$(first_kind "$(head -1 <<<"$out")")" != "$(first_kind "$want")" ]; then
    echo "FAIL  $doc: $cmd"; echo "  documented: $want"; echo "  answered:   $(head -c 300 <<<"$out")"; exit 1
  fi
  curls=$((curls + 1))
done < <(curl_examples README.md docs/*.md)
kill "$api_pid" 2>/dev/null || true
wait "$api_pid" 2>/dev/null || true
if [ "$curls" -eq 0 ]; then
  echo "docs-examples: no curl example found; the extraction is broken" >&2
  exit 1
fi

echo "docs-examples: $ran examples ran, $skipped skipped as synopses or needing the outside world; $curls curl examples ran against a server"
