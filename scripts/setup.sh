#!/usr/bin/env bash
# Installs what Scout needs on Debian 12 (idempotent): GEOS and PROJ from apt, Snowball's stemmer
# and Hunspell with its Polish and British English dictionaries (text search), PostgreSQL 15 +
# PostGIS 3 for the source test (scripts/source_test.py starts its own private cluster; Debian's
# default cluster is never used), and the PyPI packages the data scripts use. Safe to run
# again: it installs only what is missing.
set -euo pipefail
need=()
for pkg in libgeos-dev libproj-dev proj-data pkg-config postgresql-15 postgresql-15-postgis-3 \
           libstemmer-dev libhunspell-dev hunspell-pl hunspell-en-gb; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
# Java 17 for the Spark job (scripts/spark_rank.py); PySpark itself comes from PyPI when first needed.
if ! command -v java >/dev/null 2>&1; then
  echo "setup: installing openjdk-17-jre-headless" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi
# The notebooks and the peers runner (scripts/notebooks.sh, Benchmarks/peers/): PostgreSQL 15 +
# PostGIS 3 and Redis as peers, run privately on loopback; cartopy's Natural Earth and GSHHG map
# data as the maps' offline background.
need=()
for pkg in postgresql-15 postgresql-15-postgis-3 redis-server python-cartopy-data; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
    || { $SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi
pkg-config --exists geos proj hunspell || { echo "setup: pkg-config cannot find geos, proj and hunspell" >&2; exit 1; }
echo "setup: GEOS $(pkg-config --modversion geos), PROJ $(pkg-config --modversion proj)" >&2
