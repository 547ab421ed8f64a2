#!/usr/bin/env bash
# The `oz` command line, as README.md and docs/cli.md show it. test/examples/cliExample.test.ts runs this
# script with the built `oz` on PATH against oz-mock (OZ_BASE_URL and OZ_API_KEY set, OZ_CONFIG_DIR a temporary
# directory); every command must succeed, except those written `|| echo "exit $?"`.
set -euo pipefail

# #region calls
# the commands follow the client's methods word by word; path parameters are positional
# #region five-lines
oz companies items create acme --building hq --title "Ship it" --priority 2
oz tools execute echo --text hello --format text                # hello
oz agents execute --agent writer --user-request "a haiku" --stream    # tokens as they arrive
oz tools execute echo --text later --async --wait --format text       # later
oz executions list --all --limit 50 | wc -l                           # every page, one JSON line per item
# #endregion
oz tools execute echo --data '{"text": "from JSON"}' --format yaml
echo 'text: from YAML' | oz tools execute echo --data - --format markdown
# #endregion

# #region errors
oz tools execute nope --text x || echo "exit $?"               # the envelope on stderr, exit 1
oz companies items create acme --building hq --title t --priority high || echo "exit $?"   # exit 2
oz tools lst || echo "exit $?"                                 # Unknown command: oz tools lst. Did you mean oz tools list?
# #endregion
