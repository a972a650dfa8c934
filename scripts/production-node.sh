#!/usr/bin/env bash
# Runs a script on Node 24, the production images' runtime (scripts/ensure-node24.sh: the machine's Node when it is
# 24 or newer, else the one cached from the npm registry). The benchmarks run this way (`npm run bench*`), so the API,
# worker and baselines they start (on the same Node binary) are measured as production runs them: on Node 20 and 22 the
# Temporal client's AsyncLocalStorage turns on promise hooks for the whole process, which Node 24 no longer uses
# (README, "Benchmarks"). `node dist/scripts/<bench>.js` runs one on the machine's Node instead.
set -euo pipefail
exec "$(bash "$(dirname "$0")/ensure-node24.sh")" "$@"
