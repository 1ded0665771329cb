#!/bin/bash
# Chromium ($CHROMIUM, set by test/helpers/chromium.ts) as the browser tests start it: every
# --disable-features list given is passed as one, since Chromium reads only the last and
# playwright-core puts its own list before the tests'.
args=()
disabled=()
for arg in "$@"; do
  case $arg in
    --disable-features=*) disabled+=("${arg#--disable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done
IFS=,
exec "$CHROMIUM" "${args[@]}" ${disabled:+"--disable-features=${disabled[*]}"}
