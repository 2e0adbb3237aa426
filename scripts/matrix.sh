#!/usr/bin/env bash
# The test matrix: the whole suite (scripts/test.sh) on every major built here, 13, 15, 17 and 18.
# Builds the missing servers first (scripts/pg.sh; about 5 minutes each, once).
exec bash "$(dirname "$0")/test.sh" 13 15 17 18
