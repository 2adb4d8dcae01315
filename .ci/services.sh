#!/usr/bin/env bash
# Installs and starts what the web app's tests need, then prints the
# environment to use. Meant to be sourced from .ci/run:
#
#     source .ci/services.sh
#
# - Chromium from Debian (Playwright cannot download browsers here), for
#   tests/test_web_e2e.py.
# - PostgreSQL, with a user and database for tests/test_web_store.py; exports
#   PASSING_GAME_TEST_PG_URL. Listens on 127.0.0.1 only.
# - GNU gettext's msgfmt, for tests/test_catalogs.py (msgfmt --check on
#   every .po file).
# - nginx from Debian, for tests/test_web_deploy.py (docs/DEPLOY.md: nginx in
#   front of three servers); the test runs its own nginx as a subprocess on a
#   free port, so the package's service is not needed.
# - Node.js from Debian, for tests/test_outside_bots.py (the outside bot in
#   another language, examples/bots/greedy_bot.js; skipped without node).
#
# Safe to run twice. A step that fails does not stop the script, so the
# other tests still run. What a missing service does to its tests:
#
# - under CI (CI=true, as CI sets it) this exports
#   PASSING_GAME_REQUIRE_SERVICES=1, and the browser and PostgreSQL tests
#   FAIL without their service: CI never passes with them silently skipped;
# - elsewhere (a laptop without Chromium) they are skipped, with a message.

_pg_services() {
    # Sourced from a script running with `set -euo pipefail`: a failed step
    # here must not end the caller, so errexit and pipefail are off inside.
    local need=()
    command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
    command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
    command -v msgfmt >/dev/null 2>&1 || need+=(gettext)
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
    command -v node >/dev/null 2>&1 || need+=(nodejs)
    if [ ${#need[@]} -gt 0 ]; then
        echo "services: installing ${need[*]}"
        if [ "$(id -u)" = 0 ]; then
            apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive \
                apt-get install -y -q "${need[@]}" >/dev/null \
                || echo "services: apt-get install ${need[*]} failed" >&2
        else
            echo "services: not root, cannot install ${need[*]}" >&2
        fi
    fi

    if command -v pg_lsclusters >/dev/null 2>&1; then
        local version cluster
        version=$(pg_lsclusters -h 2>/dev/null | awk 'NR==1 {print $1}')
        cluster=$(pg_lsclusters -h 2>/dev/null | awk 'NR==1 {print $2}')
        if [ -z "$version" ]; then
            version=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
            cluster=main
            [ -n "$version" ] && pg_createcluster "$version" "$cluster" >/dev/null 2>&1
        fi
        if [ -n "$version" ]; then
            local port
            port=$(pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1==v && $2==c {print $3}')
            if ! pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1==v && $2==c {print $4}' | grep -q online; then
                pg_ctlcluster "$version" "$cluster" start -- -o "-c listen_addresses=127.0.0.1" \
                    || pg_ctlcluster "$version" "$cluster" start \
                    || echo "services: PostgreSQL $version/$cluster did not start" >&2
            fi
            # A user and a database for the tests (password login on loopback).
            su postgres -c "psql -p $port -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='passing_game'\"" 2>/dev/null | grep -q 1 \
                || su postgres -c "psql -p $port -qc \"CREATE ROLE passing_game LOGIN PASSWORD 'passing_game'\"" >/dev/null
            su postgres -c "psql -p $port -qtAc \"SELECT 1 FROM pg_database WHERE datname='passing_game_test'\"" 2>/dev/null | grep -q 1 \
                || su postgres -c "createdb -p $port -O passing_game passing_game_test" >/dev/null
            export PASSING_GAME_TEST_PG_URL="postgresql://passing_game:passing_game@127.0.0.1:$port/passing_game_test"
            echo "services: PostgreSQL ready, PASSING_GAME_TEST_PG_URL=$PASSING_GAME_TEST_PG_URL"
        fi
    fi
    if [ -x /usr/bin/chromium ]; then
        echo "services: $(/usr/bin/chromium --version 2>/dev/null | head -1)"
    else
        echo "services: no Chromium at /usr/bin/chromium" >&2
    fi
    if [ -x /usr/sbin/nginx ]; then
        echo "services: $(/usr/sbin/nginx -v 2>&1 | head -1)"
    else
        echo "services: no nginx at /usr/sbin/nginx" >&2
    fi
    if command -v node >/dev/null 2>&1; then
        echo "services: node $(node --version 2>/dev/null)"
    else
        echo "services: no node (Node.js): the Node outside bot's test is skipped" >&2
    fi
    if command -v msgfmt >/dev/null 2>&1; then
        echo "services: $(msgfmt --version | head -1)"
    else
        echo "services: no msgfmt (GNU gettext)" >&2
    fi
    if [ -z "${PASSING_GAME_TEST_PG_URL:-}" ]; then
        echo "services: no PostgreSQL (PASSING_GAME_TEST_PG_URL is not set)" >&2
    fi
}

if [ "${CI:-}" = "true" ] || [ "${CI:-}" = "1" ]; then
    export PASSING_GAME_REQUIRE_SERVICES=1
    echo "services: CI: the browser, PostgreSQL and nginx tests fail if their service is missing"
fi

_pg_saved_opts=$(set +o)
set +e +o pipefail
_pg_services
eval "$_pg_saved_opts"
unset -f _pg_services
unset _pg_saved_opts
