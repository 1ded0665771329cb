#!/bin/bash
# Debian's Chromium as the browser tests start it (test/helpers/chromium.ts): every
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
exec /usr/bin/chromium "${args[@]}" ${disabled:+"--disable-features=${disabled[*]}"}
